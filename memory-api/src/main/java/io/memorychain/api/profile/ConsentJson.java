package io.memorychain.api.profile;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.view.ConsentRequest;
import io.memorychain.avro.view.ConsentStatus;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/** A consent request (docs/architecture.md §21): a sensitive profile change waiting for, or decided by, the user. */
@Serdeable
@Schema(name = "Consent")
public record ConsentJson(
        String id,
        String field,
        @Schema(description = "The proposed value") String value,

        @Nullable @Schema(description = "The field's value when requested")
        String previous,

        @Nullable String source,
        String confidence,

        @Schema(
                description = "pending, granted, denied or expired; a pending request past expires_at is shown as "
                        + "expired (it can no longer be granted) until a later change of the field records it")
        String status,

        @Schema(name = "requested_seq") @JsonProperty("requested_seq")
        long requestedSeq,

        @Schema(name = "requested_at") @JsonProperty("requested_at")
        String requestedAt,

        @JsonProperty("requested_by") ActorJson requestedBy,

        @Schema(name = "expires_at") @JsonProperty("expires_at")
        String expiresAt,

        @Nullable String reason,

        @Nullable @Schema(name = "decided_seq") @JsonProperty("decided_seq")
        Long decidedSeq,

        @Nullable @Schema(name = "decided_at") @JsonProperty("decided_at")
        String decidedAt,

        @Nullable @JsonProperty("decided_by") ActorJson decidedBy,

        @Nullable @Schema(name = "decision_reason") @JsonProperty("decision_reason")
        String decisionReason) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson requestedBy() {
        return requestedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson decidedBy() {
        return decidedBy;
    }

    static ConsentJson of(ConsentRequest c, Instant asOf) {
        return new ConsentJson(
                c.getId(),
                c.getField(),
                c.getValue(),
                c.getPrevious(),
                c.getSource(),
                Enums.json(c.getConfidence()),
                Enums.json(status(c, asOf)),
                c.getRequestedSeq(),
                c.getRequestedAt().toString(),
                ActorJson.of(c.getRequestedBy()),
                c.getExpiresAt().toString(),
                c.getReason(),
                c.getDecidedSeq(),
                c.getDecidedAt() == null ? null : c.getDecidedAt().toString(),
                c.getDecidedBy() == null ? null : ActorJson.of(c.getDecidedBy()),
                c.getDecisionReason());
    }

    /** The status at {@code asOf}: a pending request past its window reads as expired (decided at query time). */
    static ConsentStatus status(ConsentRequest c, Instant asOf) {
        return c.getStatus() == ConsentStatus.PENDING && asOf.isAfter(c.getExpiresAt())
                ? ConsentStatus.EXPIRED
                : c.getStatus();
    }
}
