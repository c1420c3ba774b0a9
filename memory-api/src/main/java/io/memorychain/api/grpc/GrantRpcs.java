package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grants.GrantBody;
import io.memorychain.api.grants.GrantJson;
import io.memorychain.api.grants.GrantService;
import io.memorychain.api.grpc.v1.Grant;
import io.memorychain.api.grpc.v1.GrantList;
import io.memorychain.api.grpc.v1.GrantReads;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.request.Spaces;
import jakarta.inject.Singleton;
import java.util.Map;

/** Mechanic's Exception grants (docs/architecture.md §13; REST {@code /grants}). */
@Singleton
class GrantRpcs implements GrpcFeature {

    private final GrantService grants;
    private final ProtoJson proto;

    GrantRpcs(GrantService grants, ProtoJson proto) {
        this.grants = grants;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getRequestGrantMethod(),
                        r -> grant(grants.request(
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                new GrantBody(
                                        r.hasGrantee() ? r.getGrantee() : null,
                                        r.hasPurpose() ? r.getPurpose() : null,
                                        r.hasDurationSeconds() ? r.getDurationSeconds() : null,
                                        r.getMemoryIdsCount() == 0 ? null : r.getMemoryIdsList()))))
                .unary(
                        MemoryServiceGrpc.getListGrantsMethod(),
                        r -> proto.fill(
                                        Map.of("items", grants.list(Spaces.require(r.getSpace()))),
                                        GrantList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetGrantMethod(),
                        r -> grant(grants.get(Spaces.require(r.getSpace()), r.getId())))
                .unary(
                        MemoryServiceGrpc.getConsentGrantMethod(),
                        r -> grant(grants.consent(
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                r.getId())))
                .unary(
                        MemoryServiceGrpc.getRevokeGrantMethod(),
                        r -> grant(grants.revoke(
                                context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null),
                                r.getId(),
                                r.hasReason() ? r.getReason() : null)))
                .unary(
                        MemoryServiceGrpc.getListGrantReadsMethod(),
                        r -> proto.fill(grants.reads(Spaces.require(r.getSpace()), r.getId()), GrantReads.newBuilder())
                                .build());
    }

    private Grant grant(GrantJson grant) {
        return proto.fill(grant, Grant.newBuilder()).build();
    }
}
