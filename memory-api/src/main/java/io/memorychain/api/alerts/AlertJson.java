package io.memorychain.api.alerts;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.avro.view.CriticalAlert;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** A critical-change alert (docs/architecture.md §21, seed 001 §12.5). Names the change, never the content. */
@Serdeable
@Schema(name = "CriticalAlert")
public record AlertJson(
        String id,
        @Schema(description = "The critical block's label") String label,
        @Schema(name = "block_id") @JsonProperty("block_id") String blockId,
        int version,
        @JsonProperty("change_actor") ActorJson changeActor,

        @Schema(name = "change_seq") @JsonProperty("change_seq")
        long changeSeq,

        @Schema(name = "alerted_seq") @JsonProperty("alerted_seq")
        long alertedSeq,

        @Schema(name = "alerted_at") @JsonProperty("alerted_at")
        String alertedAt,

        boolean acknowledged,

        @Nullable @Schema(name = "acknowledged_seq") @JsonProperty("acknowledged_seq")
        Long acknowledgedSeq,

        @Nullable @Schema(name = "acknowledged_at") @JsonProperty("acknowledged_at")
        String acknowledgedAt,

        @Nullable @JsonProperty("acknowledged_by") ActorJson acknowledgedBy,
        @Nullable String reason) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson changeActor() {
        return changeActor;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson acknowledgedBy() {
        return acknowledgedBy;
    }

    static AlertJson of(CriticalAlert a) {
        return new AlertJson(
                a.getId(),
                a.getLabel(),
                a.getBlockId(),
                a.getVersion(),
                ActorJson.of(a.getChangeActor()),
                a.getChangeSeq(),
                a.getAlertedSeq(),
                a.getAlertedAt().toString(),
                a.getAcknowledgedSeq() != null,
                a.getAcknowledgedSeq(),
                a.getAcknowledgedAt() == null ? null : a.getAcknowledgedAt().toString(),
                a.getAcknowledgedBy() == null ? null : ActorJson.of(a.getAcknowledgedBy()),
                a.getReason());
    }
}
