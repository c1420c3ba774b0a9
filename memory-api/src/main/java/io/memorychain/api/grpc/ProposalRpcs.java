package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.grpc.MethodDescriptor;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.Proposal;
import io.memorychain.api.grpc.v1.ProposalList;
import io.memorychain.api.grpc.v1.ProposalWriteResult;
import io.memorychain.api.grpc.v1.ReviewProposalRequest;
import io.memorychain.api.proposals.ProposalJson;
import io.memorychain.api.proposals.ProposalListJson;
import io.memorychain.api.proposals.ProposalResult;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.proposals.ProposalWriteJson;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.ProposalDecision;
import jakarta.inject.Singleton;
import java.util.function.Function;

/** Sub-agent proposals (REST {@code /proposals}). */
@Singleton
class ProposalRpcs implements GrpcFeature {

    private final ProposalService proposals;
    private final ProtoJson proto;

    ProposalRpcs(ProposalService proposals, ProtoJson proto) {
        this.proposals = proposals;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getProposeMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                null,
                                ctx -> proposals.propose(ctx, ProtoMapping.body(r))))
                .unary(
                        MemoryServiceGrpc.getListProposalsMethod(),
                        r -> proto.fill(
                                        ProposalListJson.of(proposals.open(Spaces.require(r.getSpace()), actor())),
                                        ProposalList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetProposalMethod(),
                        r -> proto.fill(
                                        ProposalJson.of(
                                                proposals.get(Spaces.require(r.getSpace()), actor(), r.getId())),
                                        Proposal.newBuilder())
                                .build());
        review(m, MemoryServiceGrpc.getCommitProposalMethod(), ProposalDecision.COMMIT);
        review(m, MemoryServiceGrpc.getRejectProposalMethod(), ProposalDecision.REJECT);
        review(m, MemoryServiceGrpc.getDeferProposalMethod(), ProposalDecision.DEFER);
    }

    private void review(
            GrpcMethods m,
            MethodDescriptor<ReviewProposalRequest, ProposalWriteResult> method,
            ProposalDecision decision) {
        m.unary(
                method,
                r -> write(
                        r.getSpace(),
                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                        r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                        ctx -> proposals.review(ctx, r.getId(), decision, ProtoMapping.body(r))));
    }

    private ProposalWriteResult write(
            String space, String idempotencyKey, Integer expectedVersion, Function<WriteContext, ProposalResult> op) {
        WriteContext ctx = context(space, idempotencyKey, expectedVersion);
        return proto.fill(ProposalWriteJson.of(op.apply(ctx)), ProposalWriteResult.newBuilder())
                .setRequestId(ctx.requestId())
                .build();
    }
}
