package io.memorychain.api.relations;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.UnlinkMemories;
import jakarta.inject.Singleton;

/** Relation edges between memories, transport-neutral (REST {@link RelationController} and gRPC). */
@Singleton
public class Relations {

    private final ChainReads backend;
    private final WriteExecutor writes;

    public Relations(ChainReads backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** The memory's edges, outgoing then incoming; 404 NOT_FOUND for an unknown memory. */
    public RelationsJson of(String space, String id) {
        String s = Spaces.require(space);
        PathIds.require(s, id);
        if (backend.views().memory(s, id).isEmpty()) {
            throw ApiException.notFound("no memory " + id + " in space " + s);
        }
        return new RelationsJson(
                id,
                backend.views().relations(s, id).stream().map(RelationJson::of).toList());
    }

    /** Links {@code id} to {@code body.to} (type related_to and strength 1.0 by default); the edges afterwards. */
    public RelationsJson link(WriteContext ctx, String id, LinkBody body) {
        PathIds.require(ctx.space(), id);
        if (body == null || body.to() == null) {
            throw ApiException.invalid("\"to\" is required: the memory to link to");
        }
        PathIds.require(ctx.space(), body.to());
        writes.execute(
                ctx,
                new LinkMemories(
                        id,
                        body.to(),
                        body.type() == null ? "related_to" : body.type(),
                        body.strength() == null ? 1.0 : body.strength()));
        return of(ctx.space(), id);
    }

    /** Removes the edge from {@code id} to {@code to} (related_to: either direction); the edges afterwards. */
    public RelationsJson unlink(WriteContext ctx, String id, String to) {
        PathIds.require(ctx.space(), id);
        PathIds.require(ctx.space(), to);
        writes.execute(ctx, new UnlinkMemories(id, to));
        return of(ctx.space(), id);
    }
}
