package io.memorychain.api.markdown;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
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

/**
 * The Markdown view of a space (docs/architecture.md §11) over REST. {@code {+path}} matches a path with slashes
 * ({@code facts/preferences.md}); the custom methods {@code :patch} and {@code :append} follow it. Edits are recorded
 * as the caller: a person's user key (the first start issues {@code user:manual}) or an agent, whose category allowlist
 * then applies.
 */
// The {+path} routes (a file path with slashes) are hidden from the OpenAPI document: micronaut-openapi does not parse
// the reserved expansion, and would document them under /files, shadowing the list (SpecContractTest.NOT_IN_SPEC).
@Controller("/v1/spaces/{space}/files")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "files")
class FileController {

    public static final String MARKDOWN = "text/markdown";

    private final MarkdownFiles files;

    public FileController(MarkdownFiles files) {
        this.files = files;
    }

    @ErrorAnswers.Read
    @Get
    @Operation(
            operationId = "listFiles",
            summary = "List the space's Markdown files",
            description = "Path, > Summary: line, size in bytes and entry "
                    + "count of each file the actor can see (category allowlists apply).")
    public FileListJson list(
            @PathVariable String space, @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        Spaces.require(space);
        return FileListJson.of(files.list(space, actor));
    }

    @ErrorAnswers.ReadOne
    @Get("/{+path}")
    @Produces(MARKDOWN)
    @Operation(
            operationId = "readFile",
            hidden = true,
            summary = "Read a Markdown file",
            description = "text/markdown; each bullet ends with its memory id marker "
                    + "<!-- id:... -->. The ETag can be sent as If-Match with PUT, :patch and :append.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_PATH",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: the file has no entries",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<String> read(
            @PathVariable String space,
            @PathVariable String path,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        Spaces.require(space);
        MarkdownPath file = MarkdownPaths.parse(path);
        MarkdownFile read = files.read(space, actor, file);
        return HttpResponse.ok(read.text())
                .contentType(MediaType.of(MARKDOWN + ";charset=utf-8"))
                .header(HttpHeaders.ETAG, read.etag());
    }

    @ErrorAnswers.Change
    @Put("/{+path}")
    @Consumes({MARKDOWN, MediaType.TEXT_PLAIN})
    @Operation(
            operationId = "writeFile",
            hidden = true,
            summary = "Write a whole Markdown file",
            description = "Diffed against the current file: changed bullets "
                    + "update their memory, removed ones are soft-deleted, bullets without id are created, changed MEMORY.md "
                    + "sections update their block. One event per change, in file order; a file with any bad line is rejected "
                    + "before anything is published.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_PATH or INVALID_ARGUMENT (every bad line listed)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<FileWriteJson> write(
            @RequestBean WriteCall call, @PathVariable String path, @Nullable @Body String text) {
        WriteContext ctx = call.create();
        return written(files.write(ctx, MarkdownPaths.parse(path), text, call.ifMatch()), ctx);
    }

    @ErrorAnswers.Change
    @Post("/{+path}:patch")
    @Operation(
            operationId = "patchFile",
            hidden = true,
            summary = "Replace text in a Markdown file",
            description = "Each old_text must occur exactly once (else 409 "
                    + "PATCH_CONFLICT and nothing changes); the result is written as by PUT.")
    @ApiResponse(
            responseCode = "409",
            description = "PATCH_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<FileWriteJson> patch(
            @RequestBean WriteCall call, @PathVariable String path, @Nullable @Body PatchBody body) {
        WriteContext ctx = call.create();
        MarkdownPath file = MarkdownPaths.parse(path);
        if (body == null) {
            throw ApiException.invalid("A JSON body {\"edits\": [{\"old_text\", \"new_text\"}]} is required");
        }
        return written(files.patch(ctx, file, body.textEdits(), call.ifMatch()), ctx);
    }

    @ErrorAnswers.Change
    @Post("/{+path}:append")
    @Operation(
            operationId = "appendFile",
            hidden = true,
            summary = "Append entries to a Markdown file",
            description = "Creates the file when it has no entries yet.")
    public HttpResponse<FileWriteJson> append(
            @RequestBean WriteCall call, @PathVariable String path, @Nullable @Body AppendBody body) {
        WriteContext ctx = call.create();
        MarkdownPath file = MarkdownPaths.parse(path);
        return written(files.append(ctx, file, body == null ? null : body.text(), call.ifMatch()), ctx);
    }

    private static HttpResponse<FileWriteJson> written(FileWrite write, WriteContext ctx) {
        return RequestIds.echo(HttpResponse.ok(FileWriteJson.of(write)), ctx.requestId());
    }
}
