package io.memorychain.api.contradictions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The body of {@code POST /contradictions}: two active memories or open proposals that contradict each other. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "FlagContradiction")
public record FlagContradictionBody(
        @Nullable
        @Schema(
                name = "first_id",
                description = "One side: an active memory or an open proposal (p...)",
                requiredMode = Schema.RequiredMode.REQUIRED)
        @JsonProperty("first_id")
        String firstId,

        @Nullable
        @Schema(name = "second_id", description = "The other side", requiredMode = Schema.RequiredMode.REQUIRED)
        @JsonProperty("second_id")
        String secondId,

        @Nullable @Schema(description = "Cosine similarity of the two texts, when measured (-1 to 1)")
        Double similarity) {}
