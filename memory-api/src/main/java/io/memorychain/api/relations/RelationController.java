package io.memorychain.api.relations;

import io.swagger.v3.oas.annotations.Parameter;
import io.memorychain.avro.Actor;
import io.micronaut.http.annotation.RequestAttribute;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.MemoryIds;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.UnlinkMemories;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Relation edges between memories (seed 004 section 2): explicit link/unlink requests on the chain. */
@Controller("/v1/spaces/{space}/memories/{id}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "relations")
public class RelationController {

    private final MemoryBackend backend;
    private final WriteExecutor writes;

    public RelationController(MemoryBackend backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    @Get("/relations")
    @Operation(summary = "Relation edges of a memory, outgoing then incoming")
    public RelationsJson relations(@PathVariable String space, @PathVariable String id) {
        String s = Spaces.require(space);
        MemoryIds.require(s, id);
        if (backend.views().memory(s, id).isEmpty()) {
            throw ApiException.notFound("no memory " + id + " in space " + s);
        }
        return new RelationsJson(id, backend.views().relations(s, id).stream().map(RelationJson::of).toList());
    }

    @Post("/links")
    @Operation(summary = "Link the memory to another", description = "At most one edge per (from, to); related_to is symmetric.")
    @ApiResponse(responseCode = "201", description = "Linked; answers the memory's relations")
    @ApiResponse(responseCode = "409", description = "ALREADY_LINKED or INVALID_STATE", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<RelationsJson> link(@PathVariable String space, @PathVariable String id,
                                                 @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
                                                 @Nullable @Header(RequestIds.HEADER) String idempotencyKey,
                                                 @Nullable @Body LinkBody body) {
        WriteContext ctx = WriteContext.of(space, actor, idempotencyKey, null, null);
        MemoryIds.require(ctx.space(), id);
        if (body == null || body.to() == null) {
            throw ApiException.invalid("\"to\" is required: the memory to link to");
        }
        MemoryIds.require(ctx.space(), body.to());
        writes.execute(ctx, new LinkMemories(id, body.to(), body.type() == null ? "related_to" : body.type(),
                body.strength() == null ? 1.0 : body.strength()));
        return HttpResponse.created(relations(space, id));
    }

    @Delete("/links/{to}")
    @Operation(summary = "Remove the edge from the memory to another (for related_to, in either direction)")
    @ApiResponse(responseCode = "404", description = "NOT_FOUND: no such edge", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public RelationsJson unlink(@PathVariable String space, @PathVariable String id, @PathVariable String to,
                                     @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
                                     @Nullable @Header(RequestIds.HEADER) String idempotencyKey) {
        WriteContext ctx = WriteContext.of(space, actor, idempotencyKey, null, null);
        MemoryIds.require(ctx.space(), id);
        MemoryIds.require(ctx.space(), to);
        writes.execute(ctx, new UnlinkMemories(id, to));
        return relations(space, id);
    }
}
