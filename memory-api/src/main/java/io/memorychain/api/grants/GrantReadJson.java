package io.memorychain.api.grants;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.avro.view.GrantRead;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One content read under a grant: a GrantedContentRead event of the chain (docs/architecture.md §13). */
@Serdeable
@Schema(name = "GrantRead")
record GrantReadJson(
        @Schema(name = "grant_id") @JsonProperty("grant_id") String grantId,
        long seq,

        @Schema(name = "request_id") @JsonProperty("request_id")
        String requestId,

        ActorJson actor,

        @Schema(name = "occurred_at") @JsonProperty("occurred_at")
        String occurredAt,

        @Schema(description = "get_memory, list_memories, query, export or rollback_plan")
        String operation,

        @JsonProperty("memory_ids")
        @Schema(name = "memory_ids", description = "The memories whose content was answered (at most 1,000)")
        List<String> memoryIds,

        @Schema(description = "How many memories were answered")
        int count,

        @Nullable String detail) {

    public static GrantReadJson of(GrantRead r) {
        return new GrantReadJson(
                r.getGrantId(),
                r.getSeq(),
                r.getRequestId(),
                ActorJson.of(r.getActor()),
                GrantJson.iso(r.getOccurredAt()),
                r.getOperation(),
                List.copyOf(r.getMemoryIds()),
                r.getCount(),
                r.getDetail());
    }

    /** The reads of one grant, oldest first. */
    @Serdeable
    @Schema(name = "GrantReads")
    public record Page(List<GrantReadJson> items) {}
}
