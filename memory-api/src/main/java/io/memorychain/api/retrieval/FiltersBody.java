package io.memorychain.api.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The metadata filters of memory.query (docs/architecture.md §7), applied inside the search. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "QueryFilters", description = "Every filter given must match; dates are ISO-8601 dates (2025-07-01, "
        + "midnight UTC) or date-times; updated_after is inclusive, updated_before exclusive.")
public record FiltersBody(
        @Nullable @JsonProperty("user_id") String userId,
        @Nullable @JsonProperty("agent_id") String agentId,
        @Nullable @JsonProperty("run_id") String runId,
        @Nullable @JsonProperty("actor_id") String actorId,
        @Nullable String role,
        @Nullable String category,
        @Nullable Boolean pinned,
        @Nullable @JsonProperty("importance_min") Integer importanceMin,
        @Nullable @JsonProperty("importance_max") Integer importanceMax,
        @Nullable @JsonProperty("updated_after") String updatedAfter,
        @Nullable @JsonProperty("updated_before") String updatedBefore) {
}
