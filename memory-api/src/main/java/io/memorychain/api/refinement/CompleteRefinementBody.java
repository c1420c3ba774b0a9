package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** POST /v1/spaces/{space}/refinements/{session}:complete: complete_refinement. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "CompleteRefinement")
public record CompleteRefinementBody(
        @Nullable
        @Schema(description = "The agent's summary of the session", requiredMode = Schema.RequiredMode.REQUIRED)
        String summary) {}
