package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.memorychain.api.audit.AuditDigests;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.audit.AuditQuery;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.chain.ChainCheckpoints;
import io.memorychain.api.chain.ChainExports;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.changes.ChangeStreams;
import io.memorychain.api.grpc.v1.AuditDigest;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.memorychain.api.grpc.v1.AuditPage;
import io.memorychain.api.grpc.v1.ChainCheckpoint;
import io.memorychain.api.grpc.v1.ChainExportLine;
import io.memorychain.api.grpc.v1.ChainPublicKeys;
import io.memorychain.api.grpc.v1.ExportChainRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.OpsPage;
import io.memorychain.api.grpc.v1.WatchChangesRequest;
import io.memorychain.api.ops.OpsCountsService;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import jakarta.inject.Singleton;

/**
 * The audit log, its digest, operational counts and the chain itself (REST {@code /audit}, {@code /ops},
 * {@code /chain}), and the change stream (REST: server-sent events at {@code /changes}).
 */
@Singleton
class ChainRpcs implements GrpcFeature {

    private final AuditLog audit;
    private final AuditDigests digests;
    private final OpsCountsService ops;
    private final ChainVerification chain;
    private final ChainCheckpoints checkpoints;
    private final ChainExports exports;
    private final ChangeStreams changes;
    private final ApiKeys keys;
    private final ProtoJson proto;

    ChainRpcs(
            AuditLog audit,
            AuditDigests digests,
            OpsCountsService ops,
            ChainVerification chain,
            ChainCheckpoints checkpoints,
            ChainExports exports,
            ChangeStreams changes,
            ApiKeys keys,
            ProtoJson proto) {
        this.audit = audit;
        this.digests = digests;
        this.ops = ops;
        this.chain = chain;
        this.checkpoints = checkpoints;
        this.exports = exports;
        this.changes = changes;
        this.keys = keys;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getListAuditMethod(),
                        r -> proto.fill(
                                        audit.search(
                                                r.getSpace(),
                                                actor(),
                                                AuditQuery.of(
                                                                r.hasMemoryId() ? r.getMemoryId() : null,
                                                                r.hasActor() ? r.getActor() : null,
                                                                r.hasType() ? r.getType() : null,
                                                                r.hasLabel() ? r.getLabel() : null,
                                                                r.hasSince() ? r.getSince() : null,
                                                                r.hasUntil() ? r.getUntil() : null,
                                                                r.hasOrder() ? r.getOrder() : null)
                                                        .forUser(r.hasUserId() ? r.getUserId() : null, actor()),
                                                r.hasAfterSeq() ? r.getAfterSeq() : null,
                                                r.hasLimit() ? r.getLimit() : null),
                                        AuditPage.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetAuditDigestMethod(),
                        r -> proto.fill(
                                        digests.digest(
                                                r.getSpace(),
                                                actor(),
                                                r.getMonth().isEmpty() ? null : r.getMonth()),
                                        AuditDigest.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getListOpsMethod(),
                        r -> proto.fill(
                                        ops.counts(
                                                r.getSpace(),
                                                r.hasSince() ? r.getSince() : null,
                                                r.hasUntil() ? r.getUntil() : null,
                                                r.hasBucket() ? r.getBucket() : null),
                                        OpsPage.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getVerifyChainMethod(),
                        r -> proto.fill(
                                        chain.verify(Spaces.require(r.getSpace()), r.getFull()),
                                        io.memorychain.api.grpc.v1.ChainVerification.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetChainCheckpointMethod(),
                        r -> proto.fill(
                                        checkpoints.checkpoint(Spaces.require(r.getSpace())),
                                        ChainCheckpoint.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetChainKeysMethod(),
                        r -> proto.fill(checkpoints.publicKeys(), ChainPublicKeys.newBuilder())
                                .build())
                .serverStreaming(MemoryServiceGrpc.getExportChainMethod(), this::exportChain)
                .serverStreaming(MemoryServiceGrpc.getWatchChangesMethod(), this::watch);
    }

    /** The JSON Lines export as REST streams it, one message per line. */
    private void exportChain(ExportChainRequest r, StreamObserver<ChainExportLine> out) {
        String space = Spaces.require(r.getSpace());
        try (LineStream lines = new LineStream(
                line -> out.onNext(ChainExportLine.newBuilder().setLine(line).build()))) {
            exports.export(space, lines);
        }
        out.onCompleted();
    }

    private void watch(WatchChangesRequest r, StreamObserver<AuditEntry> out) {
        Actor reader = actor();
        String credentials = GrpcAuthInterceptor.CREDENTIALS.get();
        GrpcChangeSink.watch(
                changes,
                r.getSpace(),
                r.getSinceRev(),
                new ChangeStreams.Watcher<>(
                        () -> keys.authenticate(credentials),
                        entry -> proto.fill(audit.entry(r.getSpace(), reader, entry), AuditEntry.newBuilder())
                                .build()),
                (ServerCallStreamObserver<AuditEntry>) out);
    }
}
