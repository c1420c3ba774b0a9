package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.erasure.Erasures;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.grpc.v1.ErasureProof;
import io.memorychain.api.grpc.v1.History;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryActionRequest;
import io.memorychain.api.grpc.v1.MemoryPage;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.WriteResult;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.PointInTimeReads;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.HistoryResponse;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.function.Function;

/** Memories (REST {@code /memories}, {@code /consolidations}): writes, reads, flags, history, erasure and purge. */
@Singleton
class MemoryRpcs implements GrpcFeature {

    private final Memories memories;
    private final Erasures erasures;
    private final PointInTimeReads pointInTime;
    private final GrantedReads granted;
    private final ProtoJson proto;

    MemoryRpcs(Memories memories, Erasures erasures, PointInTimeReads pointInTime, GrantedReads granted,
               ProtoJson proto) {
        this.memories = memories;
        this.erasures = erasures;
        this.pointInTime = pointInTime;
        this.granted = granted;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getCreateMemoryMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                        ctx -> memories.create(ctx, ProtoMapping.body(r))))
                .unary(MemoryServiceGrpc.getGetMemoryMethod(), this::get)
                .unary(MemoryServiceGrpc.getListMemoriesMethod(), this::list)
                .unary(MemoryServiceGrpc.getUpdateMemoryMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                        ctx -> memories.update(ctx, r.getId(), ProtoMapping.body(r))))
                .unary(MemoryServiceGrpc.getDeleteMemoryMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                        ctx -> memories.delete(ctx, r.getId(), r.hasReason() ? r.getReason() : null)))
                .unary(MemoryServiceGrpc.getRestoreMemoryMethod(), r -> action(r, ctx -> memories.restore(ctx, r.getId())))
                .unary(MemoryServiceGrpc.getProtectMemoryMethod(), r -> action(r,
                        ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, true)))
                .unary(MemoryServiceGrpc.getUnprotectMemoryMethod(), r -> action(r,
                        ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, false)))
                .unary(MemoryServiceGrpc.getPinMemoryMethod(), r -> action(r,
                        ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, true)))
                .unary(MemoryServiceGrpc.getUnpinMemoryMethod(), r -> action(r,
                        ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, false)))
                .unary(MemoryServiceGrpc.getConsolidateMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                        ctx -> memories.consolidate(ctx, ProtoMapping.body(r))))
                .unary(MemoryServiceGrpc.getGetHistoryMethod(), r -> proto.fill(new HistoryResponse(r.getId(),
                        memories.history(r.getSpace(), r.getId(), actor()).stream().map(HistoryEntryJson::of).toList()),
                        History.newBuilder()).build())
                .unary(MemoryServiceGrpc.getEraseMemoryMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                        ctx -> erasures.erase(ctx, r.getId(), r.getReason())))
                .unary(MemoryServiceGrpc.getPurgeMemoryMethod(), r -> write(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                        ctx -> erasures.purge(ctx, r.getId(), r.getReason())))
                .unary(MemoryServiceGrpc.getGetErasureProofMethod(), r -> proto.fill(erasures.proof(r.getSpace(),
                        r.getId()), ErasureProof.newBuilder()).build());
    }

    private Memory get(io.memorychain.api.grpc.v1.GetMemoryRequest r) {
        AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                r.hasAsOf() ? r.getAsOf() : null);
        io.memorychain.avro.Memory memory = granted.read(r.getSpace(), actor(), "get_memory",
                GrantedReads.detail("id", r.getId(), "as_of", at), () -> at == null
                        ? memories.get(r.getSpace(), r.getId(), actor())
                        : pointInTime.memory(r.getSpace(), r.getId(), actor(), at), mem -> List.of(mem.getId()));
        return proto.fill(MemoryJson.of(memory), Memory.newBuilder()).build();
    }

    private MemoryPage list(io.memorychain.api.grpc.v1.ListMemoriesRequest r) {
        AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                r.hasAsOf() ? r.getAsOf() : null);
        String kind = r.hasKind() ? r.getKind() : null;
        String category = r.hasCategory() ? r.getCategory() : null;
        String state = r.hasState() ? r.getState() : null;
        String after = r.hasAfter() ? r.getAfter() : null;
        Integer limit = r.hasLimit() ? r.getLimit() : null;
        Page<io.memorychain.avro.Memory> page = granted.read(r.getSpace(), actor(), "list_memories",
                GrantedReads.detail("kind", kind, "category", category, "state", state, "after", after,
                        "limit", limit, "as_of", at), () -> at == null
                        ? memories.list(r.getSpace(), actor(), kind, category, state, after, limit)
                        : pointInTime.list(r.getSpace(), actor(), kind, category, state, after,
                        limit == null ? Memories.DEFAULT_LIMIT : limit, at),
                p -> p.items().stream().map(io.memorychain.avro.Memory::getId).toList());
        return proto.fill(new io.memorychain.api.memories.MemoryPage(page.items().stream().map(MemoryJson::of).toList(),
                page.next()), MemoryPage.newBuilder()).build();
    }

    private WriteResult action(MemoryActionRequest r, Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return write(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null, op);
    }

    private WriteResult write(String space, String idempotencyKey, Integer expectedVersion,
                              Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return written(proto, context(space, idempotencyKey, expectedVersion), op);
    }

    /** A write's answer: the REST {@code WriteResponse} with the request id REST sends as a header. */
    static WriteResult written(ProtoJson proto, WriteContext ctx,
                               Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        return proto.fill(WriteResponse.of(op.apply(ctx)), WriteResult.newBuilder()).setRequestId(ctx.requestId())
                .build();
    }
}
