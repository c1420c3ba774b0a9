package io.memorychain.api.checkpoints;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/** An agent checkpoint as the API answers it. */
@Serdeable
@Schema(name = "AgentCheckpoint")
public record CheckpointJson(
        String space,

        @Schema(name = "user_id", description = "The user the thread is with; empty when none") @JsonProperty("user_id")
        String userId,

        @Schema(name = "thread_id") @JsonProperty("thread_id")
        String threadId,

        @Schema(name = "checkpoint_id") @JsonProperty("checkpoint_id")
        String checkpointId,

        @Nullable @Schema(name = "parent_id") @JsonProperty("parent_id")
        String parentId,

        @Schema(description = "The saved state, a JSON object")
        Map<String, Object> state,

        @Schema(description = "The caller's metadata, a JSON object")
        Map<String, Object> metadata,

        @Schema(name = "created_at", description = "When this checkpoint id was first saved")
        @JsonProperty("created_at")
        String createdAt,

        @Schema(name = "updated_at", description = "When this version was saved") @JsonProperty("updated_at")
        String updatedAt,

        @Schema(name = "saved_by", description = "Who saved it, type:id") @JsonProperty("saved_by")
        String savedBy) {

    public static CheckpointJson of(Checkpoint c) {
        return new CheckpointJson(
                c.thread().space(),
                c.thread().userId(),
                c.thread().threadId(),
                c.id(),
                c.parentId(),
                c.state(),
                c.metadata(),
                c.createdAt().toString(),
                c.updatedAt().toString(),
                c.savedBy());
    }

    /** A page of a thread's checkpoints, newest first. */
    @Serdeable
    @Schema(name = "AgentCheckpointPage")
    public record Page(
            List<CheckpointJson> items,

            @Nullable
            @Schema(name = "next_cursor", description = "Pass as ?cursor= for the next page; null on the last")
            @JsonProperty("next_cursor")
            String nextCursor) {

        static Page of(Checkpoints.Page page) {
            return new Page(page.items().stream().map(CheckpointJson::of).toList(), page.nextCursor());
        }
    }

    /** What deleting a thread's checkpoints did. */
    @Serdeable
    @Schema(name = "DeletedCheckpoints")
    public record Deleted(
            String space,

            @Schema(name = "user_id") @JsonProperty("user_id")
            String userId,

            @Schema(name = "thread_id") @JsonProperty("thread_id")
            String threadId,

            @Schema(description = "How many checkpoints the thread had")
            int deleted) {}
}
