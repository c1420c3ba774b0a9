package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.chain.ChainKeyRotations;
import io.memorychain.api.grpc.v1.ChainKeyChange;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.write.WriteContext;
import jakarta.inject.Singleton;

/** A space's chain signing key: rotation and compromise marks (docs/architecture.md §4; REST {@code /chain/keys}). */
@Singleton
class ChainKeyRpcs implements GrpcFeature {

    private final ChainKeyRotations rotations;
    private final ProtoJson proto;

    ChainKeyRpcs(ChainKeyRotations rotations, ProtoJson proto) {
        this.rotations = rotations;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getRotateChainKeyMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    return answer(
                            ctx,
                            rotations.rotate(
                                    ctx, r.hasKeyId() ? r.getKeyId() : null, r.hasReason() ? r.getReason() : null));
                })
                .unary(MemoryServiceGrpc.getMarkChainKeyCompromisedMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    return answer(
                            ctx,
                            rotations.markCompromised(
                                    ctx, r.getKeyId(), r.hasFromSeq() ? r.getFromSeq() : null, r.getReason()));
                });
    }

    /** The REST answer, with the request id REST sends as a header. */
    private ChainKeyChange answer(WriteContext ctx, io.memorychain.api.chain.ChainKeyChange change) {
        return proto.fill(change, ChainKeyChange.newBuilder())
                .setRequestId(ctx.requestId())
                .build();
    }
}
