package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.avro.view.RefinementEdit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One edit of a refinement session: the chain event, and every memory it changed before and after. */
@Serdeable
@Schema(name = "RefinementEdit")
record RefinementEditJson(
        long seq,

        @Schema(name = "event_type") @JsonProperty("event_type")
        String eventType,

        @Schema(name = "request_id") @JsonProperty("request_id")
        String requestId,

        ActorJson actor,

        @Schema(name = "occurred_at") @JsonProperty("occurred_at")
        String occurredAt,

        String description,
        List<Change> changes) {

    /** One memory before (null when created) and after the edit. */
    @Serdeable
    @Schema(name = "RefinementChange")
    public record Change(
            @Schema(name = "memory_id") @JsonProperty("memory_id")
            String memoryId,

            @Nullable MemoryJson before,
            MemoryJson after) {}

    public static RefinementEditJson of(RefinementEdit e) {
        return new RefinementEditJson(
                e.getSeq(),
                e.getEventType(),
                e.getRequestId(),
                ActorJson.of(e.getActor()),
                e.getOccurredAt().toString(),
                e.getDescription(),
                e.getChanges().stream()
                        .map(c -> new Change(
                                c.getAfter().getId(), MemoryJson.of(c.getBefore()), MemoryJson.of(c.getAfter())))
                        .toList());
    }
}
