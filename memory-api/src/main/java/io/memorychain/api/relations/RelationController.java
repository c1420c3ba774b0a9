package io.memorychain.api.relations;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
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

/** Relation edges between memories (docs/architecture.md §6): explicit link/unlink requests on the chain. */
@Controller("/v1/spaces/{space}/memories/{id}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "relations")
class RelationController {

    private final Relations relations;

    public RelationController(Relations relations) {
        this.relations = relations;
    }

    @ErrorAnswers.ReadOne
    @Get("/relations")
    @Operation(operationId = "getRelations", summary = "Relation edges of a memory, outgoing then incoming")
    public RelationsJson relations(@PathVariable String space, @PathVariable String id) {
        return relations.of(space, id);
    }

    @ErrorAnswers.Change
    @Post("/links")
    @Operation(
            operationId = "link",
            summary = "Link the memory to another",
            description = "At most one edge per (from, to); related_to is symmetric.")
    @ApiResponse(
            responseCode = "201",
            description = "Linked; answers the memory's relations",
            useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_LINKED or INVALID_STATE",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<RelationsJson> link(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body LinkBody body) {
        WriteContext ctx = call.create();
        return HttpResponse.created(relations.link(ctx, id, body));
    }

    @ErrorAnswers.Change
    @Delete("/links/{to}")
    @Operation(
            operationId = "unlink",
            summary = "Remove the edge from the memory to another (for related_to, in either direction)")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: no such edge",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public RelationsJson unlink(@RequestBean WriteCall call, @PathVariable String id, @PathVariable String to) {
        WriteContext ctx = call.create();
        return relations.unlink(ctx, id, to);
    }
}
