package io.memorychain.api.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.avro.view.AuditEntry;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One line of a space's audit log (one chain event). */
@Serdeable
@Schema(name = "AuditEntry")
public record AuditEntryJson(
        long seq,

        @Schema(name = "event_type") @JsonProperty("event_type")
        String eventType,

        @Schema(name = "request_id") @JsonProperty("request_id")
        String requestId,

        ActorJson actor,

        @Schema(name = "occurred_at") @JsonProperty("occurred_at")
        String occurredAt,

        @Schema(name = "memory_ids") @JsonProperty("memory_ids")
        List<String> memoryIds,

        String description,
        @Schema(description = "Hex hash of the chain event") String hash) {

    public static AuditEntryJson of(AuditEntry e) {
        return new AuditEntryJson(
                e.getSeq(),
                e.getEventType(),
                e.getRequestId(),
                ActorJson.of(e.getActor()),
                e.getOccurredAt() == null ? null : e.getOccurredAt().toString(),
                List.copyOf(e.getMemoryIds()),
                e.getDescription(),
                e.getHash());
    }
}
