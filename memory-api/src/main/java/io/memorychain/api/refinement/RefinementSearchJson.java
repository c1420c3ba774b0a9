package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The answer of search_memories: matching ledger memories, best first. */
@Serdeable
@Schema(name = "RefinementSearchResult")
public record RefinementSearchJson(
        @Schema(name = "session_id") @JsonProperty("session_id")
        String sessionId,

        List<LedgerEntryJson> items) {

    public static RefinementSearchJson of(RefinementSessions.SearchResult found) {
        return new RefinementSearchJson(
                found.sessionId(),
                found.memories().stream().map(LedgerEntryJson::of).toList());
    }
}
