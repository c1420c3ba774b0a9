package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.Reflection;
import io.memorychain.api.grpc.v1.ReflectionChange;
import io.memorychain.api.grpc.v1.ReflectionLog;
import io.memorychain.api.grpc.v1.ReflectionRequested;
import io.memorychain.api.reflections.ReflectionChangeJson;
import io.memorychain.api.reflections.ReflectionDecisionBody;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.MemoryOutcome;
import jakarta.inject.Singleton;
import java.util.List;

/** The reflection engine (docs/architecture.md §18; REST {@code /reflections}). */
@Singleton
class ReflectionRpcs implements GrpcFeature {

    private final ReflectionService reflections;
    private final ProtoJson proto;

    ReflectionRpcs(ReflectionService reflections, ProtoJson proto) {
        this.reflections = reflections;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getListReflectionsMethod(),
                        r -> proto.fill(
                                        reflections.log(
                                                Spaces.require(r.getSpace()),
                                                actor(),
                                                r.hasStatus() ? r.getStatus() : null),
                                        ReflectionLog.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetReflectionMethod(),
                        r -> proto.fill(
                                        ReflectionJson.of(
                                                reflections.get(Spaces.require(r.getSpace()), r.getId(), actor())),
                                        Reflection.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getRequestReflectionMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    MemoryOutcome outcome = reflections.request(ctx, r.hasReason() ? r.getReason() : null);
                    return ReflectionRequested.newBuilder()
                            .setRequestId(ctx.requestId())
                            .setSeq(outcome.getSeq())
                            .build();
                })
                .unary(MemoryServiceGrpc.getDecideReflectionMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    ReflectionDecisionBody body = new ReflectionDecisionBody(
                            r.getDecision().isEmpty() ? null : r.getDecision(),
                            r.hasReason() ? r.getReason() : null,
                            List.copyOf(r.getChangeIdsList()),
                            r.getEditedChangesList().stream()
                                    .map(ReflectionRpcs::change)
                                    .toList());
                    return proto.fill(
                                    ReflectionJson.of(reflections.decide(ctx, r.getId(), body)),
                                    Reflection.newBuilder())
                            .build();
                });
    }

    private static ReflectionChangeJson change(ReflectionChange c) {
        return new ReflectionChangeJson(
                c.getChangeId(),
                c.getType(),
                c.hasReason() ? c.getReason() : null,
                c.hasMemoryId() ? c.getMemoryId() : null,
                c.hasToId() ? c.getToId() : null,
                c.hasLabel() ? c.getLabel() : null,
                c.hasContent() ? c.getContent() : null,
                c.hasSummary() ? c.getSummary() : null,
                c.hasCategory() ? c.getCategory() : null,
                List.copyOf(c.getTagsList()),
                c.hasImportance() ? c.getImportance() : null,
                c.hasRelationType() ? c.getRelationType() : null);
    }
}
