package io.memorychain.api.export;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.write.WriteCall;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
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

/**
 * Export of a space or of one user's memories (JSON or Markdown) and import of a JSON export (docs/architecture.md
 * §13).
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "export")
class ExportController {

    private final SpaceTransfer transfer;

    public ExportController(SpaceTransfer transfer) {
        this.transfer = transfer;
    }

    @ErrorAnswers.Read
    @Get(
            value = "/export",
            produces = {MediaType.APPLICATION_JSON, "text/markdown"})
    @Operation(
            operationId = "exportSpace",
            summary = "The space's active memories, blocks and relations (or one user's memories) as JSON, or as "
                    + "Markdown with format=markdown")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<?> export(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @Nullable @QueryValue("user_id") @Parameter(description = "only this user's memories") String userId,
            @Nullable @QueryValue @Parameter(description = "json (default) or markdown") String format) {
        SpaceTransfer.Exported exported = transfer.exportRead(space, actor, userId, format);
        if (exported.markdown() == null) {
            return HttpResponse.ok(exported.export()).contentType(MediaType.APPLICATION_JSON_TYPE);
        }
        return HttpResponse.ok(exported.markdown()).contentType("text/markdown");
    }

    @ErrorAnswers.Write
    @Post("/import")
    @Operation(
            operationId = "importSpace",
            summary = "Write a JSON export's memories (original created_at kept), blocks and relations into the space",
            description =
                    "One write per memory, block and edge through the normal write path; request ids derive from the "
                            + "exported space and ids, so a retried import does not write twice.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public ImportResult importExport(@RequestBean WriteCall call, @Nullable @Body SpaceExport export) {
        return transfer.importInto(call.space(), call.actor(), export);
    }
}
