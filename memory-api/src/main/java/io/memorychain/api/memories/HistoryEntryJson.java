package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.avro.view.HistoryEntry;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** One event that touched a memory, with the memory before and after it. */
@Serdeable
@Schema(name = "HistoryEntry")
public record HistoryEntryJson(
        long seq,

        @Schema(name = "event_type") @JsonProperty("event_type")
        String eventType,

        @Schema(name = "request_id") @JsonProperty("request_id")
        String requestId,

        ActorJson actor,

        @Schema(name = "occurred_at") @JsonProperty("occurred_at")
        String occurredAt,

        @Nullable MemoryJson before,
        @Nullable MemoryJson after) {

    public static HistoryEntryJson of(HistoryEntry e) {
        return new HistoryEntryJson(
                e.getSeq(),
                e.getEventType(),
                e.getRequestId(),
                ActorJson.of(e.getActor()),
                MemoryJson.iso(e.getOccurredAt()),
                MemoryJson.of(e.getBefore()),
                MemoryJson.of(e.getAfter()));
    }
}
