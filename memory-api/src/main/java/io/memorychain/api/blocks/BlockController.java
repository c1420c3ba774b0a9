package io.memorychain.api.blocks;

import io.swagger.v3.oas.annotations.Parameter;
import io.memorychain.avro.Actor;
import io.micronaut.http.annotation.RequestAttribute;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Memory;
import io.memorychain.avro.UpdateBlock;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Optional;
import java.util.regex.Pattern;

/** Labelled core blocks (persona, user_profile, goals, knowledge, critical, ...): one active version per label. */
@Controller("/v1/spaces/{space}/blocks")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "blocks")
public class BlockController {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final MemoryBackend backend;
    private final WriteExecutor writes;
    private final InputRules rules;

    public BlockController(MemoryBackend backend, WriteExecutor writes, InputRules rules) {
        this.backend = backend;
        this.writes = writes;
        this.rules = rules;
    }

    @Put("/{label}")
    @Operation(summary = "Write a new version of a block", description = "The previous version becomes superseded. "
            + "Labels are configured (memory.block-labels); another label is 400 UNKNOWN_BLOCK_LABEL from the sequencer.")
    @ApiResponse(responseCode = "400", description = "INVALID_ARGUMENT or UNKNOWN_BLOCK_LABEL", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(responseCode = "409", description = "VERSION_CONFLICT", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> put(@PathVariable String space, @PathVariable String label,
                                           @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
                                           @Nullable @Header(RequestIds.HEADER) String idempotencyKey,
                                           @Nullable @Header(ExpectedVersions.IF_MATCH) String ifMatch,
                                           @Nullable @Body BlockBody body) {
        WriteContext ctx = WriteContext.of(space, actor, idempotencyKey, body == null ? null : body.expectedVersion(), ifMatch);
        UpdateBlock op = request(label, body);
        WriteResult result = writes.execute(ctx, op, (views, outcome) -> outcome.getMemoryId() != null
                ? views.memory(ctx.space(), outcome.getMemoryId()) : views.block(ctx.space(), label));
        return HttpResponse.ok(new WriteResponse(MemoryJson.of(result.memory()), result.seq()))
                .header("X-Request-Id", ctx.requestId());
    }

    @Get("/{label}")
    @Operation(summary = "The active version of a block")
    @ApiResponse(responseCode = "404", description = "NOT_FOUND: no such label, or nothing written to it yet", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<MemoryJson> get(@PathVariable String space, @PathVariable String label) {
        Spaces.require(space);
        Optional<Memory> block = LABEL.matcher(label).matches() ? backend.views().block(space, label) : Optional.empty();
        Memory memory = block.orElseThrow(() -> new ApiException(ErrorCodes.NOT_FOUND, "No block '" + Texts.abbreviate(label)
                + "' in space " + space));
        return HttpResponse.ok(MemoryJson.of(memory)).header(HttpHeaders.ETAG, ExpectedVersions.etag(memory.getVersion()));
    }

    UpdateBlock request(String label, BlockBody body) {
        if (!LABEL.matcher(label).matches()) {
            throw new ApiException(ErrorCodes.UNKNOWN_BLOCK_LABEL, "Invalid block label '" + Texts.abbreviate(label) + "'");
        }
        if (body == null) {
            throw ApiException.invalid("A JSON body with 'content' is required");
        }
        return UpdateBlock.newBuilder()
                .setLabel(label)
                .setContent(rules.content("content", body.content()))
                .setCore(body.core() == null || body.core())
                .build();
    }
}
