package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.contradictions.ContradictionService;
import io.memorychain.api.contradictions.FlagContradictionBody;
import io.memorychain.api.contradictions.ResolveContradictionBody;
import io.memorychain.api.grpc.v1.Contradiction;
import io.memorychain.api.grpc.v1.ContradictionList;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.request.Spaces;
import jakarta.inject.Singleton;

/** Contradictions between memories or proposals (docs/architecture.md §10; REST {@code /contradictions}). */
@Singleton
class ContradictionRpcs implements GrpcFeature {

    private final ContradictionService contradictions;
    private final ProtoJson proto;

    ContradictionRpcs(ContradictionService contradictions, ProtoJson proto) {
        this.contradictions = contradictions;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getListContradictionsMethod(),
                        r -> proto.fill(
                                        contradictions.list(
                                                Spaces.require(r.getSpace()),
                                                actor(),
                                                r.hasState() ? r.getState() : null),
                                        ContradictionList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getFlagContradictionMethod(),
                        r -> proto.fill(
                                        contradictions.flag(
                                                context(
                                                        r.getSpace(),
                                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                                        null),
                                                new FlagContradictionBody(
                                                        blankToNull(r.getFirstId()),
                                                        blankToNull(r.getSecondId()),
                                                        r.hasSimilarity() ? r.getSimilarity() : null)),
                                        Contradiction.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getResolveContradictionMethod(),
                        r -> proto.fill(
                                        contradictions.resolve(
                                                context(
                                                        r.getSpace(),
                                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                                        null),
                                                r.getId(),
                                                new ResolveContradictionBody(
                                                        blankToNull(r.getResolution()),
                                                        r.hasWinnerId() ? r.getWinnerId() : null)),
                                        Contradiction.newBuilder())
                                .build());
    }

    /** proto3 strings are never null: an unset one is "" (the service answers INVALID_ARGUMENT for it). */
    private static String blankToNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
