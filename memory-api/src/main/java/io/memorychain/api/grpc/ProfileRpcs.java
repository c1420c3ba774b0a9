package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.Consent;
import io.memorychain.api.grpc.v1.ConsentList;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.Profile;
import io.memorychain.api.grpc.v1.ProfileField;
import io.memorychain.api.grpc.v1.ProfileWrite;
import io.memorychain.api.grpc.v1.SetProfileFieldRequest;
import io.memorychain.api.profile.ProfileService;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import jakarta.inject.Singleton;
import java.util.Map;

/** The user profile and its consent requests (docs/architecture.md §21; REST {@code /profile}, {@code /consents}). */
@Singleton
class ProfileRpcs implements GrpcFeature {

    private final ProfileService profiles;
    private final ProtoJson proto;

    ProfileRpcs(ProfileService profiles, ProtoJson proto) {
        this.profiles = profiles;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getGetProfileMethod(),
                        r -> proto.fill(profiles.profile(Spaces.require(r.getSpace())), Profile.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getGetProfileFieldMethod(),
                        r -> proto.fill(
                                        profiles.field(Spaces.require(r.getSpace()), r.getField()),
                                        ProfileField.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getSetProfileFieldMethod(), this::set)
                .unary(
                        MemoryServiceGrpc.getListConsentsMethod(),
                        r -> proto.fill(
                                        Map.of(
                                                "items",
                                                profiles.consents(
                                                        Spaces.require(r.getSpace()),
                                                        r.hasStatus() ? r.getStatus() : null)),
                                        ConsentList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getDecideConsentMethod(),
                        r -> proto.fill(
                                        profiles.decide(
                                                context(
                                                        r.getSpace(),
                                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                                        null),
                                                r.getId(),
                                                r.hasGrant() ? r.getGrant() : null,
                                                r.hasReason() ? r.getReason() : null),
                                        Consent.newBuilder())
                                .build());
    }

    private ProfileWrite set(SetProfileFieldRequest r) {
        WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
        ProfileService.Written written = profiles.set(
                ctx,
                r.getField(),
                r.getValue(),
                r.hasSource() ? r.getSource() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasReason() ? r.getReason() : null);
        return proto.fill(profiles.answer(written), ProfileWrite.newBuilder())
                .setRequestId(ctx.requestId())
                .build();
    }
}
