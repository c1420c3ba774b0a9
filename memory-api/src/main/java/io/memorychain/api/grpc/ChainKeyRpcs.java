package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.chain.ChainKeyRotations;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
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
        m.unary(MemoryServiceGrpc.getRotateChainKeyMethod(), r -> MemoryRpcs.written(proto, context(r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                        ctx -> rotations.rotate(ctx, r.hasKeyId() ? r.getKeyId() : null,
                                r.hasReason() ? r.getReason() : null)))
                .unary(MemoryServiceGrpc.getMarkChainKeyCompromisedMethod(), r -> MemoryRpcs.written(proto,
                        context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                        ctx -> rotations.markCompromised(ctx, r.getKeyId(), r.getFromSeq(), r.getReason())));
    }
}
