package io.memorychain.api.retrieval;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** memory.query and context assembly (docs/architecture.md §7). */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "retrieval")
class RetrievalController {

    private final Retrieval retrieval;

    private final AsOfReads reads;

    public RetrievalController(Retrieval retrieval, AsOfReads reads) {
        this.retrieval = retrieval;
        this.reads = reads;
    }

    @ErrorAnswers.Write
    @Post("/query")
    @Operation(
            operationId = "query",
            summary = "memory.query: hybrid search with filters, allowlist, budget and delta header",
            description = "Keyword (BM25) and meaning (embedding) search fused, reranked by decay, importance, recency "
                    + "and relations. Returned memories are recorded as accesses.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED or FORBIDDEN",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = "UNAVAILABLE: the space's index is being rebuilt",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public QueryJson.Answer query(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actorHeader,
            @Nullable @Body QueryBody body) {
        return reads.query(space, actorHeader, body);
    }

    @ErrorAnswers.Write
    @Post("/context")
    @Operation(
            operationId = "context",
            summary = "Context for the start of a turn: core memory, delta header, working memories, within max_tokens")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public QueryJson.Context context(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actorHeader,
            @Nullable @Body ContextBody body) {
        return retrieval.context(space, actorHeader, body);
    }
}
