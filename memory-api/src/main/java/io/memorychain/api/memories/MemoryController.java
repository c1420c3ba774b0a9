package io.memorychain.api.memories;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.contradictions.ContradictionJson;
import io.memorychain.api.contradictions.ContradictionService;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.view.HistoryEntry;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;

/**
 * Memories of one space. Writes publish a request and answer once the local views show its result (read-your-writes);
 * reads answer from the local views.
 *
 * <p>The state-changing actions use Google-style custom methods, {@code POST /memories/{id}:restore} (and
 * {@code :protect}, {@code :unprotect}, {@code :pin}, {@code :unpin}): Micronaut routes a literal suffix after a path
 * variable, see MemoryApiHttpTest.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "memories")
class MemoryController {

    public static final int DEFAULT_LIMIT = Memories.DEFAULT_LIMIT;

    private final Memories memories;
    private final AsOfReads asOfReads;

    private final ContradictionService contradictions;

    public MemoryController(Memories memories, AsOfReads asOfReads, ContradictionService contradictions) {
        this.contradictions = contradictions;
        this.asOfReads = asOfReads;
        this.memories = memories;
    }

    @ErrorAnswers.Write
    @Post("/memories")
    @Operation(
            operationId = "createMemory",
            summary = "Create a memory",
            description = "Answers 201 with the memory once the local views show it.")
    @ApiResponse(responseCode = "201", description = "Created", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED: the category is not in the actor's allowlist",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "413",
            description = "TOO_LARGE",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = "TIMEOUT: retry with the same Idempotency-Key",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> create(@RequestBean WriteCall call, @Nullable @Body CreateMemoryBody body) {
        WriteContext ctx = call.create();
        WriteResult result = memories.create(ctx, body);
        return RequestIds.echo(HttpResponse.created(WriteResponse.of(result)), ctx.requestId())
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/memories/"
                        + result.memory().getId())));
    }

    @ErrorAnswers.ReadOne
    @Get("/memories/{id}")
    @Operation(
            operationId = "getMemory",
            summary = "One memory, whatever its state",
            description = "ETag carries the version (use it in If-Match).")
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED: the actor's allowlist does not include the memory's category",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND (also for ids of other spaces)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<MemoryJson> get(
            @PathVariable String space,
            @PathVariable String id,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader,
            @Nullable @QueryValue("as_of_seq") @Parameter(description = AsOf.SEQ_DOC) String asOfSeq,
            @Nullable @QueryValue("as_of") @Parameter(description = AsOf.TIME_DOC) String asOf) {
        AsOf at = asOfReads.point(space, asOfSeq, asOf);
        Memory memory = asOfReads.memory(space, id, reader, at);
        MemoryJson json = MemoryJson.of(memory);
        if (at == null) {
            json = json.withContradictions(contradictions.openOf(space, reader, id).stream()
                    .map(ContradictionJson::id)
                    .toList());
        }
        return HttpResponse.ok(json).header(HttpHeaders.ETAG, ExpectedVersions.etag(memory.getVersion()));
    }

    @ErrorAnswers.Read
    @Get("/memories")
    @Operation(
            operationId = "listMemories",
            summary = "List memories in id (creation) order",
            description =
                    "Without state, only active memories are listed. "
                            + "For an agent with a category allowlist, only memories of its categories (and uncategorized ones).")
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED: category is not in the actor's allowlist",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public MemoryPage list(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader,
            @Nullable
                    @QueryValue
                    @Parameter(description = "semantic, episodic, procedural, insight, journal, block or entity")
                    String kind,
            @Nullable @QueryValue String category,
            @Nullable @QueryValue @Parameter(description = "active (default), superseded, soft_deleted or archived")
                    String state,
            @Nullable @QueryValue @Parameter(description = "cursor: the previous page's next") String after,
            @Nullable @QueryValue @Parameter(description = "1 to 500, default 50") Integer limit,
            @Nullable @QueryValue("as_of_seq") @Parameter(description = AsOf.SEQ_DOC) String asOfSeq,
            @Nullable @QueryValue("as_of") @Parameter(description = AsOf.TIME_DOC) String asOf) {
        return asOfReads.list(
                space, reader, kind, category, state, after, limit, asOfReads.point(space, asOfSeq, asOf));
    }

    @ErrorAnswers.Change
    @Patch("/memories/{id}")
    @Operation(
            operationId = "updateMemory",
            summary = "Change fields of an active memory",
            description = "Optimistic concurrency with expected_version or If-Match.")
    @ApiResponse(
            responseCode = "409",
            description = "VERSION_CONFLICT or INVALID_STATE",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> update(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body UpdateMemoryBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(memories.update(ctx, id, body))), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Delete("/memories/{id}")
    @Operation(
            operationId = "deleteMemory",
            summary = "Soft-delete a memory",
            description = "Restorable; the memory stays on the chain forever.")
    @ApiResponse(
            responseCode = "403",
            description = "CONSTITUTIONAL",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> delete(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body DeleteMemoryBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        WriteResult result = memories.delete(ctx, id, body == null ? null : body.reason());
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(result)), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:restore")
    @Operation(operationId = "restoreMemory", summary = "Restore a soft-deleted memory")
    public HttpResponse<WriteResponse> restore(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body VersionBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(memories.restore(ctx, id))), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:protect")
    @Operation(
            operationId = "protectMemory",
            summary = "Make a memory constitutional",
            description = "Constitutional memories cannot be deleted or consolidated.")
    public HttpResponse<WriteResponse> protect(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body VersionBody body) {
        return flag(call, id, body, MemoryFlag.CONSTITUTIONAL, true);
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:unprotect")
    @Operation(operationId = "unprotectMemory", summary = "Clear a memory's constitutional flag")
    public HttpResponse<WriteResponse> unprotect(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body VersionBody body) {
        return flag(call, id, body, MemoryFlag.CONSTITUTIONAL, false);
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:pin")
    @Operation(operationId = "pinMemory", summary = "Pin a memory (never decays)")
    public HttpResponse<WriteResponse> pin(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body VersionBody body) {
        return flag(call, id, body, MemoryFlag.PINNED, true);
    }

    @ErrorAnswers.Change
    @Post("/memories/{id}:unpin")
    @Operation(operationId = "unpinMemory", summary = "Unpin a memory")
    public HttpResponse<WriteResponse> unpin(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body VersionBody body) {
        return flag(call, id, body, MemoryFlag.PINNED, false);
    }

    @ErrorAnswers.ReadOne
    @Get("/memories/{id}/history")
    @Operation(
            operationId = "getHistory",
            summary = "Every event that touched the memory, oldest first, with before and after")
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED: the actor's allowlist does not include the memory's category",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HistoryResponse history(
            @PathVariable String space,
            @PathVariable String id,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        List<HistoryEntry> entries = memories.history(space, id, actor);
        return new HistoryResponse(
                id, entries.stream().map(HistoryEntryJson::of).toList());
    }

    private HttpResponse<WriteResponse> flag(
            WriteCall call, String id, VersionBody body, MemoryFlag flag, boolean value) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(memories.flag(ctx, id, flag, value))), ctx.requestId());
    }
}
