package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.principal;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.KeyJson;
import io.memorychain.api.auth.NewKeyBody;
import io.memorychain.api.grpc.v1.ApiKey;
import io.memorychain.api.grpc.v1.ApiKeyList;
import io.memorychain.api.grpc.v1.Caller;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import jakarta.inject.Singleton;

/** API keys (REST {@code /v1/keys}, admins) and the caller ({@code /v1/me}). */
@Singleton
class KeyRpcs implements GrpcFeature {

    private final ApiKeys keys;
    private final ProtoJson proto;

    KeyRpcs(ApiKeys keys, ProtoJson proto) {
        this.keys = keys;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getIssueKeyMethod(), r -> {
                    ApiKeys.Issued issued = keys.issue(
                            NewKeyBody.principal(ProtoMapping.body(r)),
                            principal().id());
                    return proto.fill(KeyJson.of(issued.record(), issued.key()), ApiKey.newBuilder())
                            .build();
                })
                .unary(
                        MemoryServiceGrpc.getListKeysMethod(),
                        r -> proto.fill(
                                        new KeyJson.Page(keys.list().stream()
                                                .map(k -> KeyJson.of(k, null))
                                                .toList()),
                                        ApiKeyList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getRevokeKeyMethod(),
                        r -> proto.fill(KeyJson.of(keys.revoke(r.getKeyId()), null), ApiKey.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getWhoAmIMethod(),
                        r -> proto.fill(KeyJson.Caller.of(principal()), Caller.newBuilder())
                                .build());
    }
}
