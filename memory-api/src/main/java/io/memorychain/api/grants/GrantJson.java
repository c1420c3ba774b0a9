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
        @Schema(description = "pending, active, expired or revoked (expired: computed at read time)") String status,
        @Schema(description = "The admin principal who may read under it") String grantee,
        String purpose,
        @JsonProperty("duration_seconds") long durationSeconds,
        @JsonProperty("memory_ids") @Schema(description = "The memories covered; empty: the whole space") List<String> memoryIds,
        @JsonProperty("requested_by") ActorJson requestedBy,
        @JsonProperty("requested_seq") long requestedSeq,
        @JsonProperty("requested_at") String requestedAt,
        @Nullable @JsonProperty("consented_by") ActorJson consentedBy,
        @Nullable @JsonProperty("consented_at") String consentedAt,
        @Nullable @JsonProperty("expires_at") String expiresAt,
        @Nullable @JsonProperty("revoked_by") ActorJson revokedBy,
        @Nullable @JsonProperty("revoked_at") String revokedAt,
        @Nullable @JsonProperty("revoke_reason") String revokeReason,
        @Schema(description = "Content reads recorded under it") long reads,
        @Nullable @JsonProperty("last_read_at") String lastReadAt) {

    public static GrantJson of(Grant g, Instant now) {
        String status = Grants.isExpired(g, now) ? "expired" : Enums.json(g.getStatus());
        return new GrantJson(g.getId(), g.getSpace(), status, g.getGrantee(), g.getPurpose(), g.getDurationSeconds(),
                List.copyOf(g.getMemoryIds()), ActorJson.of(g.getRequestedBy()), g.getRequestedSeq(),
                iso(g.getRequestedAt()), ActorJson.of(g.getConsentedBy()), iso(g.getConsentedAt()),
                iso(g.getExpiresAt()), ActorJson.of(g.getRevokedBy()), iso(g.getRevokedAt()), g.getRevokeReason(),
                g.getReads(), iso(g.getLastReadAt()));
    }

    static String iso(Instant t) {
        return t == null ? null : t.toString();
    }
}
