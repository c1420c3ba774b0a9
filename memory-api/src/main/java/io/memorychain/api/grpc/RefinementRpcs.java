package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.RefinementCompletion;
import io.memorychain.api.grpc.v1.RefinementList;
import io.memorychain.api.grpc.v1.RefinementSearchResult;
import io.memorychain.api.grpc.v1.RefinementSession;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.refinement.Completion;
import io.memorychain.api.refinement.CompletionJson;
import io.memorychain.api.refinement.RefinementListJson;
import io.memorychain.api.refinement.RefinementSearchBody;
import io.memorychain.api.refinement.RefinementSearchJson;
import io.memorychain.api.refinement.RefinementSessionJson;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.api.refinement.SessionView;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import jakarta.inject.Singleton;

/** Refinement sessions and their knife tools (REST {@code /refinements}). */
@Singleton
class RefinementRpcs implements GrpcFeature {

    private final RefinementSessions refinements;
    private final MemoryRequests requests;
    private final ProtoJson proto;

    RefinementRpcs(RefinementSessions refinements, MemoryRequests requests, ProtoJson proto) {
        this.refinements = refinements;
        this.requests = requests;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getStartRefinementMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    SessionView started = refinements.start(
                            ctx,
                            r.hasTargetTokens() ? r.getTargetTokens() : null,
                            r.hasReason() ? r.getReason() : null);
                    return proto.fill(RefinementSessionJson.of(started), RefinementSession.newBuilder())
                            .build();
                })
                .unary(
                        MemoryServiceGrpc.getListRefinementsMethod(),
                        r -> proto.fill(
                                        new RefinementListJson(
                                                refinements.sessions(Spaces.require(r.getSpace())).stream()
                                                        .map(RefinementSessionJson::of)
                                                        .toList()),
                                        RefinementList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetRefinementMethod(),
                        r -> proto.fill(
                                        RefinementSessionJson.of(refinements.session(
                                                Spaces.require(r.getSpace()), r.getSession(), actor())),
                                        RefinementSession.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getSearchRefinementMethod(), r -> {
                    RefinementSearchBody body = new RefinementSearchBody(
                            r.hasQuery() ? r.getQuery() : null,
                            r.hasCreatedAfter() ? r.getCreatedAfter() : null,
                            r.hasCreatedBefore() ? r.getCreatedBefore() : null,
                            r.hasLimit() ? r.getLimit() : null);
                    return proto.fill(
                                    RefinementSearchJson.of(refinements.search(
                                            Spaces.require(r.getSpace()), actor(), r.getSession(), body)),
                                    RefinementSearchResult.newBuilder())
                            .build();
                })
                .unary(
                        MemoryServiceGrpc.getRefinementConsolidateMethod(),
                        r -> MemoryRpcs.written(
                                proto,
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                ctx -> refinements.consolidate(
                                        ctx, r.getSession(), requests.consolidate(ctx.space(), ProtoMapping.body(r)))))
                .unary(
                        MemoryServiceGrpc.getRefinementUpdateMemoryMethod(),
                        r -> MemoryRpcs.written(
                                proto,
                                context(
                                        r.getSpace(),
                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                        r.hasExpectedVersion() ? r.getExpectedVersion() : null),
                                ctx -> {
                                    PathIds.require(ctx.space(), r.getId());
                                    return refinements.update(
                                            ctx, r.getSession(), requests.update(r.getId(), ProtoMapping.body(r)));
                                }))
                .unary(
                        MemoryServiceGrpc.getRefinementDeleteMemoryMethod(),
                        r -> MemoryRpcs.written(
                                proto,
                                context(
                                        r.getSpace(),
                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                        r.hasExpectedVersion() ? r.getExpectedVersion() : null),
                                ctx -> refinements.delete(
                                        ctx, r.getSession(), r.getId(), r.hasReason() ? r.getReason() : null)))
                .unary(
                        MemoryServiceGrpc.getRefinementProtectMemoryMethod(),
                        r -> MemoryRpcs.written(
                                proto,
                                context(
                                        r.getSpace(),
                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                        r.hasExpectedVersion() ? r.getExpectedVersion() : null),
                                ctx -> refinements.protect(ctx, r.getSession(), r.getId())))
                .unary(MemoryServiceGrpc.getCompleteRefinementMethod(), r -> {
                    WriteContext ctx =
                            context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
                    Completion done = refinements.complete(ctx, r.getSession(), ProtoMapping.required(r.getSummary()));
                    return proto.fill(CompletionJson.of(done), RefinementCompletion.newBuilder())
                            .setRequestId(ctx.requestId())
                            .build();
                });
    }
}
