package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.RollbackPlan;
import io.memorychain.api.grpc.v1.RollbackRequest;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.rollback.Rollbacks;
import io.memorychain.api.write.WriteContext;
import io.memorychain.domain.rollback.RollbackSpec;
import jakarta.inject.Singleton;

/** The time machine (docs/architecture.md §17; REST {@code /rollback}), admins only. */
@Singleton
class RollbackRpcs implements GrpcFeature {

    private final Rollbacks rollbacks;
    private final ProtoJson proto;

    RollbackRpcs(Rollbacks rollbacks, ProtoJson proto) {
        this.rollbacks = rollbacks;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getPlanRollbackMethod(),
                        r -> proto.fill(
                                        rollbacks.planFor(Spaces.require(r.getSpace()), actor(), spec(r)),
                                        RollbackPlan.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getApplyRollbackMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    return proto.fill(
                                    rollbacks.shown(
                                            ctx.actor(),
                                            rollbacks.apply(
                                                    ctx,
                                                    spec(r),
                                                    r.hasReason() ? r.getReason() : null,
                                                    r.hasPlanDigest() ? r.getPlanDigest() : null)),
                                    RollbackPlan.newBuilder())
                            .build();
                });
    }

    private static RollbackSpec spec(RollbackRequest r) {
        return Rollbacks.spec(
                r.hasMemoryId() ? r.getMemoryId() : null,
                r.hasSessionId() ? r.getSessionId() : null,
                r.hasActor() ? r.getActor() : null,
                r.hasReflectionId() ? r.getReflectionId() : null,
                r.hasFromSeq() ? r.getFromSeq() : null,
                r.hasToSeq() ? r.getToSeq() : null,
                r.hasToTime() ? r.getToTime() : null);
    }
}
