package io.memorychain.api.memories;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;

/** Consolidation: N memories superseded by one new memory, atomically, on the chain as one event. */
@Controller("/v1/spaces/{space}/consolidations")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "memories")
class ConsolidationController {

    private final Memories memories;

    public ConsolidationController(Memories memories) {
        this.memories = memories;
    }

    @ErrorAnswers.Write
    @Post
    @Operation(
            operationId = "consolidate",
            summary = "Consolidate memories into a new one",
            description = "Answers 201 with the new memory; the inputs become superseded.")
    @ApiResponse(responseCode = "201", description = "Created", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "403",
            description = "CONSTITUTIONAL: an input is constitutional",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: an input does not exist in this space",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> consolidate(@RequestBean WriteCall call, @Nullable @Body ConsolidateBody body) {
        WriteContext ctx = call.create();
        WriteResult result = memories.consolidate(ctx, body);
        return RequestIds.echo(HttpResponse.created(WriteResponse.of(result)), ctx.requestId())
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/memories/"
                        + result.memory().getId())));
    }
}
