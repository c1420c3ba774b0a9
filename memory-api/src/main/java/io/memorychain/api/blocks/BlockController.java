package io.memorychain.api.blocks;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Memory;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Labelled core blocks (persona, user_profile, goals, knowledge, critical, ...): one active version per label. */
@Controller("/v1/spaces/{space}/blocks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "blocks")
class BlockController {

    private final Blocks blocks;

    public BlockController(Blocks blocks) {
        this.blocks = blocks;
    }

    @ErrorAnswers.Change
    @Put("/{label}")
    @Operation(
            operationId = "putBlock",
            summary = "Write a new version of a block",
            description =
                    "The previous version becomes superseded. "
                            + "Labels are configured (memory.block-labels); another label is 400 UNKNOWN_BLOCK_LABEL from the sequencer.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT or UNKNOWN_BLOCK_LABEL",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "VERSION_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> put(
            @RequestBean WriteCall call, @PathVariable String label, @Nullable @Body BlockBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        WriteResult result = blocks.put(ctx, label, body);
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(result)), ctx.requestId());
    }

    @ErrorAnswers.ReadOne
    @Get("/{label}")
    @Operation(operationId = "getBlock", summary = "The active version of a block")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: no such label, or nothing written to it yet",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<MemoryJson> get(@PathVariable String space, @PathVariable String label) {
        Memory memory = blocks.get(space, label);
        return HttpResponse.ok(MemoryJson.of(memory))
                .header(HttpHeaders.ETAG, ExpectedVersions.etag(memory.getVersion()));
    }
}
