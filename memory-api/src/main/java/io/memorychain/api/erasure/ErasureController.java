package io.memorychain.api.erasure;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
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

/** Erasure, the admin's purge and the proof of an erasure (docs/architecture.md §12, §13). */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "memories")
class ErasureController {

    private final Erasures erasures;

    public ErasureController(Erasures erasures) {
        this.erasures = erasures;
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:erase")
    @Operation(
            operationId = "eraseMemory",
            summary = "Erase a memory for good (crypto-shredding)",
            description = "Admins and users. Destroys the "
                    + "memory's data key: its text in every event on the chain becomes unreadable everywhere, the memory becomes "
                    + "a tombstone reading [erased], and the chain still verifies. Cannot be undone or rolled back.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: no reason",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN: agents, subagents and workers may not erase",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: already erased; VERSION_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> erase(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ReasonBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        return RequestIds.echo(
                HttpResponse.ok(WriteResponse.of(erasures.erase(ctx, id, body == null ? null : body.reason()))),
                ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:purge")
    @Operation(
            operationId = "purgeMemory",
            summary = "Purge a soft-deleted memory now (admins)",
            description =
                    "The memory becomes a tombstone "
                            + "reading [purged] that nothing can change or roll back; erase it too to make its earlier events unreadable.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: no reason",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (not an admin); CONSTITUTIONAL",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: not soft-deleted, pinned or already purged",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> purge(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ReasonBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        return RequestIds.echo(
                HttpResponse.ok(WriteResponse.of(erasures.purge(ctx, id, body == null ? null : body.reason()))),
                ctx.requestId());
    }

    @ErrorAnswers.ReadOne
    @Get("/memories/{id}/erasure")
    @Operation(
            operationId = "erasureProof",
            summary = "Proof of an erasure",
            description = "The signed MemoryErased event, the destroyed key record "
                    + "and the chain verified up to its head. No content.")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: the memory is not erased",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public ErasureProof proof(@PathVariable String space, @PathVariable String id) {
        return erasures.proof(space, id);
    }
}
