package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.contradictions.ContradictionJson;
import io.memorychain.api.contradictions.ContradictionService;
import io.memorychain.api.erasure.Erasures;
import io.memorychain.api.grpc.v1.ErasureProof;
import io.memorychain.api.grpc.v1.History;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryActionRequest;
import io.memorychain.api.grpc.v1.MemoryPage;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.WriteResult;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.HistoryResponse;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.MemoryFlag;
import jakarta.inject.Singleton;
import java.util.function.Function;

/** Memories (REST {@code /memories}, {@code /consolidations}): writes, reads, flags, history, erasure and purge. */
@Singleton
class MemoryRpcs implements GrpcFeature {

    private final Memories memories;
    private final Erasures erasures;
    private final AsOfReads reads;
    private final ProtoJson proto;

    private final ContradictionService contradictions;

    MemoryRpcs(
            Memories memories,
            Erasures erasures,
            AsOfReads reads,
            ProtoJson proto,
            ContradictionService contradictions) {
        this.contradictions = contradictions;
        this.memories = memories;
        this.erasures = erasures;
        this.reads = reads;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getCreateMemoryMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                null,
                                ctx -> memories.create(ctx, ProtoMapping.body(r))))
                .unary(MemoryServiceGrpc.getGetMemoryMethod(), this::get)
                .unary(MemoryServiceGrpc.getListMemoriesMethod(), this::list)
                .unary(
                        MemoryServiceGrpc.getUpdateMemoryMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                                ctx -> memories.update(ctx, r.getId(), ProtoMapping.body(r))))
                .unary(
                        MemoryServiceGrpc.getDeleteMemoryMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                                ctx -> memories.delete(ctx, r.getId(), r.hasReason() ? r.getReason() : null)))
                .unary(
                        MemoryServiceGrpc.getRestoreMemoryMethod(),
                        r -> action(r, ctx -> memories.restore(ctx, r.getId())))
                .unary(
                        MemoryServiceGrpc.getProtectMemoryMethod(),
                        r -> action(r, ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, true)))
                .unary(
                        MemoryServiceGrpc.getUnprotectMemoryMethod(),
                        r -> action(r, ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, false)))
                .unary(
                        MemoryServiceGrpc.getPinMemoryMethod(),
                        r -> action(r, ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, true)))
                .unary(
                        MemoryServiceGrpc.getUnpinMemoryMethod(),
                        r -> action(r, ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, false)))
                .unary(
                        MemoryServiceGrpc.getConsolidateMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                null,
                                ctx -> memories.consolidate(ctx, ProtoMapping.body(r))))
                .unary(
                        MemoryServiceGrpc.getGetHistoryMethod(),
                        r -> proto.fill(
                                        new HistoryResponse(
                                                r.getId(),
                                                memories.history(r.getSpace(), r.getId(), actor()).stream()
                                                        .map(HistoryEntryJson::of)
                                                        .toList()),
                                        History.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getEraseMemoryMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                                ctx -> erasures.erase(ctx, r.getId(), r.getReason())))
                .unary(
                        MemoryServiceGrpc.getPurgeMemoryMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                                ctx -> erasures.purge(ctx, r.getId(), r.getReason())))
                .unary(
                        MemoryServiceGrpc.getGetErasureProofMethod(),
                        r -> proto.fill(erasures.proof(r.getSpace(), r.getId()), ErasureProof.newBuilder())
                                .build());
    }

    private Memory get(io.memorychain.api.grpc.v1.GetMemoryRequest r) {
        AsOf at = reads.point(
                r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null, r.hasAsOf() ? r.getAsOf() : null);
        MemoryJson json = MemoryJson.of(reads.memory(r.getSpace(), r.getId(), actor(), at));
        if (at == null) {
            json = json.withContradictions(contradictions.openOf(r.getSpace(), actor(), r.getId()).stream()
                    .map(ContradictionJson::id)
                    .toList());
        }
        return proto.fill(json, Memory.newBuilder()).build();
    }

    private MemoryPage list(io.memorychain.api.grpc.v1.ListMemoriesRequest r) {
        AsOf at = reads.point(
                r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null, r.hasAsOf() ? r.getAsOf() : null);
        return proto.fill(
                        reads.list(
                                r.getSpace(),
                                actor(),
                                r.hasKind() ? r.getKind() : null,
                                r.hasCategory() ? r.getCategory() : null,
                                r.hasState() ? r.getState() : null,
                                r.hasAfter() ? r.getAfter() : null,
                                r.hasLimit() ? r.getLimit() : null,
                                at),
                        MemoryPage.newBuilder())
                .build();
    }

    private WriteResult action(MemoryActionRequest r, Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return write(
                r.getSpace(),
                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                op);
    }

    private WriteResult write(
            String space,
            String idempotencyKey,
            Integer expectedVersion,
            Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return written(proto, context(space, idempotencyKey, expectedVersion), op);
    }

    /** A write's answer: the REST {@code WriteResponse} with the request id REST sends as a header. */
    static WriteResult written(
            ProtoJson proto, WriteContext ctx, Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return proto.fill(WriteResponse.of(op.apply(ctx)), WriteResult.newBuilder())
                .setRequestId(ctx.requestId())
                .build();
    }
}
