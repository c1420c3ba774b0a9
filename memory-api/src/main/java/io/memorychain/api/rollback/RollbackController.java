package io.memorychain.api.rollback;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The time machine (docs/architecture.md §17) over REST, admin only: a thin layer over {@link Rollbacks}. */
@Controller("/v1/spaces/{space}/rollback")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "rollback")
class RollbackController {

    private final Rollbacks rollbacks;

    public RollbackController(Rollbacks rollbacks) {
        this.rollbacks = rollbacks;
    }

    @ErrorAnswers.Write
    @Post("/plan")
    @Operation(
            operationId = "planRollback",
            summary = "Dry run of a rollback (admin): what would change, memory by memory",
            description = "Replays the space's chain into its state at the target and now; changes nothing.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: a bad combination, a bad time, a seq beyond the head",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: no such memory or session",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public RollbackPlanJson plan(
            @PathVariable String space,
            @io.swagger.v3.oas.annotations.Parameter(hidden = true)
                    @io.micronaut.http.annotation.RequestAttribute(io.memorychain.api.auth.Principal.ACTOR)
                    io.memorychain.avro.Actor actor,
            @Nullable @Body RollbackBody body) {
        return rollbacks.planFor(Spaces.require(space), actor, body);
    }

    @ErrorAnswers.Write
    @Post
    @Operation(
            operationId = "applyRollback",
            summary = "Apply a rollback (admin)",
            description = "Plans again and appends RollbackApplied (scope, "
                    + "target, reason, plan digest) and the restoring events in one transaction; the views follow.")
    @ApiResponse(responseCode = "201", description = "Applied", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: no reason, nothing to roll back, bad input",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "VERSION_CONFLICT: the plan changed since the dry run or the space moved",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<RollbackPlanJson> apply(@RequestBean WriteCall call, @Nullable @Body RollbackBody body) {
        WriteContext ctx = call.create();
        Spaces.require(ctx.space());
        return RequestIds.echo(HttpResponse.created(rollbacks.applyFor(ctx, body)), ctx.requestId());
    }
}
