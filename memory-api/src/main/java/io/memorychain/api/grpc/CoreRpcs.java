package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.grpc.v1.ContextAnswer;
import io.memorychain.api.grpc.v1.Core;
import io.memorychain.api.grpc.v1.GetCoreRequest;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.QueryAnswer;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.retrieval.Retrieval;
import jakarta.inject.Singleton;

/** Blocks, core memory and retrieval (REST {@code /blocks}, {@code /core}, {@code /query}, {@code /context}). */
@Singleton
class CoreRpcs implements GrpcFeature {

    private final Blocks blocks;
    private final Retrieval retrieval;
    private final AsOfReads reads;
    private final ProtoJson proto;

    CoreRpcs(Blocks blocks, Retrieval retrieval, AsOfReads reads, ProtoJson proto) {
        this.blocks = blocks;
        this.retrieval = retrieval;
        this.reads = reads;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getPutBlockMethod(),
                        r -> MemoryRpcs.written(
                                proto,
                                context(
                                        r.getSpace(),
                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                        r.hasExpectedVersion() ? r.getExpectedVersion() : null),
                                ctx -> blocks.put(ctx, r.getLabel(), ProtoMapping.body(r))))
                .unary(
                        MemoryServiceGrpc.getGetBlockMethod(),
                        r -> proto.fill(MemoryJson.of(blocks.get(r.getSpace(), r.getLabel())), Memory.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getGetCoreMethod(), this::core)
                .unary(MemoryServiceGrpc.getQueryMethod(), this::query)
                .unary(
                        MemoryServiceGrpc.getContextMethod(),
                        r -> proto.fill(
                                        retrieval.context(r.getSpace(), actor(), ProtoMapping.body(r)),
                                        ContextAnswer.newBuilder())
                                .build());
    }

    private Core core(GetCoreRequest r) {
        AsOf at = reads.point(
                r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null, r.hasAsOf() ? r.getAsOf() : null);
        return proto.fill(reads.core(r.getSpace(), actor(), at), Core.newBuilder())
                .build();
    }

    private QueryAnswer query(QueryRequest r) {
        return proto.fill(reads.query(r.getSpace(), actor(), ProtoMapping.body(r)), QueryAnswer.newBuilder())
                .build();
    }
}
