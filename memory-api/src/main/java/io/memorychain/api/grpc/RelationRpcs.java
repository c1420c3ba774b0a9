package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.relations.Relations;
import io.memorychain.api.relations.RelationsJson;
import jakarta.inject.Singleton;

/** Relation edges of a memory (REST {@code /memories/{id}/links}, {@code /relations}). */
@Singleton
class RelationRpcs implements GrpcFeature {

    private final Relations relations;
    private final ProtoJson proto;

    RelationRpcs(Relations relations, ProtoJson proto) {
        this.relations = relations;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getLinkMethod(),
                        r -> answer(relations.link(
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                r.getId(),
                                ProtoMapping.body(r))))
                .unary(
                        MemoryServiceGrpc.getUnlinkMethod(),
                        r -> answer(relations.unlink(
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                r.getId(),
                                r.getTo())))
                .unary(MemoryServiceGrpc.getGetRelationsMethod(), r -> answer(relations.of(r.getSpace(), r.getId())));
    }

    private io.memorychain.api.grpc.v1.Relations answer(RelationsJson edges) {
        return proto.fill(edges, io.memorychain.api.grpc.v1.Relations.newBuilder())
                .build();
    }
}
