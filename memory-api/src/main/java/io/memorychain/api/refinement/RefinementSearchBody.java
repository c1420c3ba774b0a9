package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** POST /v1/spaces/{space}/refinements/{session}/search: search_memories. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "RefinementSearch", description = "Keywords and/or a creation time range over the session's ledger.")
public record RefinementSearchBody(
        @Nullable
        @Schema(
                description =
                        "Words to look for (any of them; more matched ranks higher); blank: every ledger memory in the range")
        String query,

        @Nullable @JsonProperty("created_after") @Schema(name = "created_after", description = "Inclusive, ISO-8601")
        String createdAfter,

        @Nullable @JsonProperty("created_before") @Schema(name = "created_before", description = "Exclusive, ISO-8601")
        String createdBefore,

        @Nullable @Schema(description = "1 to 500, default 50")
        Integer limit) {}
