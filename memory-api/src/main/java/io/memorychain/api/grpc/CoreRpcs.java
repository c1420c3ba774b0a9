package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.core.CoreJson;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.grpc.v1.ContextAnswer;
import io.memorychain.api.grpc.v1.Core;
import io.memorychain.api.grpc.v1.GetCoreRequest;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.QueryAnswer;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.PointInTimeReads;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.retrieval.Retrieval;
import jakarta.inject.Singleton;

/** Blocks, core memory and retrieval (REST {@code /blocks}, {@code /core}, {@code /query}, {@code /context}). */
@Singleton
class CoreRpcs implements GrpcFeature {

    private final Blocks blocks;
    private final CoreMemory core;
    private final Retrieval retrieval;
    private final PointInTimeReads pointInTime;
    private final GrantedReads granted;
    private final ProtoJson proto;

    CoreRpcs(Blocks blocks, CoreMemory core, Retrieval retrieval, PointInTimeReads pointInTime, GrantedReads granted,
             ProtoJson proto) {
        this.blocks = blocks;
        this.core = core;
        this.retrieval = retrieval;
        this.pointInTime = pointInTime;
        this.granted = granted;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getPutBlockMethod(), r -> MemoryRpcs.written(proto, context(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null),
                        ctx -> blocks.put(ctx, r.getLabel(), ProtoMapping.body(r))))
                .unary(MemoryServiceGrpc.getGetBlockMethod(), r -> proto.fill(MemoryJson.of(blocks.get(r.getSpace(),
                        r.getLabel())), Memory.newBuilder()).build())
                .unary(MemoryServiceGrpc.getGetCoreMethod(), this::core)
                .unary(MemoryServiceGrpc.getQueryMethod(), this::query)
                .unary(MemoryServiceGrpc.getContextMethod(), r -> proto.fill(retrieval.context(r.getSpace(), actor(),
                        ProtoMapping.body(r)), ContextAnswer.newBuilder()).build());
    }

    private Core core(GetCoreRequest r) {
        AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                r.hasAsOf() ? r.getAsOf() : null);
        return proto.fill(CoreJson.of(at == null ? core.read(r.getSpace(), actor())
                : pointInTime.core(r.getSpace(), actor(), at)), Core.newBuilder()).build();
    }

    private QueryAnswer query(QueryRequest r) {
        return proto.fill(granted.readWholeSpace(r.getSpace(), actor(), "query",
                GrantedReads.detail("query_chars", r.getQuery().length(), "as_of_seq",
                        r.hasAsOfSeq() ? r.getAsOfSeq() : null, "as_of", r.hasAsOf() ? r.getAsOf() : null),
                () -> retrieval.queryAt(r.getSpace(), actor(), ProtoMapping.body(r)), QueryJson::memoryIds),
                QueryAnswer.newBuilder()).build();
    }
}
