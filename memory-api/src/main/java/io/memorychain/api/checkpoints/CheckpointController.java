package io.memorychain.api.checkpoints;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Agents' checkpoints (the design's supervisor checkpointer): an agent's working state per user and thread, saved on
 * its own compacted topic (never on the chain) and loaded from this instance's view of it.
 */
@Controller("/v1/spaces/{space}/checkpoints")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "checkpoints")
class CheckpointController {

    private final Checkpoints checkpoints;

    public CheckpointController(Checkpoints checkpoints) {
        this.checkpoints = checkpoints;
    }

    @ErrorAnswers.Write
    @Post
    @Operation(
            operationId = "saveCheckpoint",
            summary = "Save an agent checkpoint",
            description = "Answers once this instance's view has it, so a load right after sees it.")
    public HttpResponse<CheckpointJson> save(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @Nullable @Body SaveCheckpointBody body) {
        Checkpoints.Draft draft =
                body == null ? new Checkpoints.Draft(null, null, null, null, null, null) : body.draft();
        Checkpoint saved = checkpoints.save(Spaces.require(space), actor, draft);
        return HttpResponse.created(CheckpointJson.of(saved));
    }

    @ErrorAnswers.ReadOne
    @Get("/{id}")
    @Operation(
            operationId = "getCheckpoint",
            summary = "Load a checkpoint",
            description = "By id, or the thread's newest with the id 'latest'.")
    public CheckpointJson get(
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @QueryValue("thread_id") String threadId,
            @Nullable @QueryValue("user_id") String userId) {
        return CheckpointJson.of(checkpoints.get(Spaces.require(space), userId, threadId, id));
    }

    @ErrorAnswers.Read
    @Get
    @Operation(operationId = "listCheckpoints", summary = "A thread's checkpoints, newest first (paged)")
    public CheckpointJson.Page list(
            @PathVariable String space,
            @Nullable @QueryValue("thread_id") String threadId,
            @Nullable @QueryValue("user_id") String userId,
            @Nullable @QueryValue Integer limit,
            @Nullable @QueryValue String cursor) {
        return CheckpointJson.Page.of(checkpoints.list(Spaces.require(space), userId, threadId, limit, cursor));
    }

    @ErrorAnswers.Read
    @Delete
    @Operation(
            operationId = "deleteCheckpoints",
            summary = "Delete a thread's checkpoints",
            description = "Tombstones on the checkpoint topic; compaction then removes the states from the log.")
    public CheckpointJson.Deleted delete(
            @PathVariable String space,
            @Nullable @QueryValue("thread_id") String threadId,
            @Nullable @QueryValue("user_id") String userId) {
        String s = Spaces.require(space);
        int deleted = checkpoints.deleteThread(s, userId, threadId);
        return new CheckpointJson.Deleted(s, userId == null ? "" : userId, threadId, deleted);
    }
}
