package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** Optional body of POST /v1/spaces/{space}/refinements. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "StartRefinement")
public record StartRefinementBody(
        @Nullable
        @JsonProperty("target_tokens")
        @Schema(
                name = "target_tokens",
                description = "Core token budget to reach; default memory.refinement.target-tokens (5,000)",
                minimum = "1")
        Integer targetTokens,

        @Nullable @Schema(description = "Why; kept on the chain")
        String reason) {}
