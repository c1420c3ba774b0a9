package io.memorychain.api.grants;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.view.Grant;
import io.memorychain.domain.Grants;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A Mechanic's Exception grant as the API shows it (docs/architecture.md §13). {@code status} is computed with the
 * reader's clock: an active grant past its {@code expires_at} shows as {@code expired} (no event marks the expiry).
 */
@Serdeable
@Schema(name = "Grant")
public record GrantJson(
        String id,
        String space,

        @Schema(description = "pending, active, expired or revoked (expired: computed at read time)")
        String status,

        @Schema(description = "The admin principal who may read under it")
        String grantee,

        String purpose,

        @Schema(name = "duration_seconds") @JsonProperty("duration_seconds")
        long durationSeconds,

        @JsonProperty("memory_ids")
        @Schema(name = "memory_ids", description = "The memories covered; empty: the whole space")
        List<String> memoryIds,

        @JsonProperty("requested_by") ActorJson requestedBy,

        @Schema(name = "requested_seq") @JsonProperty("requested_seq")
        long requestedSeq,

        @Schema(name = "requested_at") @JsonProperty("requested_at")
        String requestedAt,

        @Nullable @JsonProperty("consented_by") ActorJson consentedBy,

        @Nullable @Schema(name = "consented_at") @JsonProperty("consented_at")
        String consentedAt,

        @Nullable @Schema(name = "expires_at") @JsonProperty("expires_at")
        String expiresAt,

        @Nullable @JsonProperty("revoked_by") ActorJson revokedBy,

        @Nullable @Schema(name = "revoked_at") @JsonProperty("revoked_at")
        String revokedAt,

        @Nullable @Schema(name = "revoke_reason") @JsonProperty("revoke_reason")
        String revokeReason,

        @Schema(description = "Content reads recorded under it")
        long reads,

        @Nullable @Schema(name = "last_read_at") @JsonProperty("last_read_at")
        String lastReadAt) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson requestedBy() {
        return requestedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson consentedBy() {
        return consentedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson revokedBy() {
        return revokedBy;
    }

    public static GrantJson of(Grant g, Instant now) {
        String status = Grants.isExpired(g, now) ? "expired" : Enums.json(g.getStatus());
        return new GrantJson(
                g.getId(),
                g.getSpace(),
                status,
                g.getGrantee(),
                g.getPurpose(),
                g.getDurationSeconds(),
                List.copyOf(g.getMemoryIds()),
                ActorJson.of(g.getRequestedBy()),
                g.getRequestedSeq(),
                iso(g.getRequestedAt()),
                ActorJson.of(g.getConsentedBy()),
                iso(g.getConsentedAt()),
                iso(g.getExpiresAt()),
                ActorJson.of(g.getRevokedBy()),
                iso(g.getRevokedAt()),
                g.getRevokeReason(),
                g.getReads(),
                iso(g.getLastReadAt()));
    }

    static String iso(Instant t) {
        return t == null ? null : t.toString();
    }
}
