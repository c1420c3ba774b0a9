package io.memorychain.api.contradictions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The body of {@code POST /contradictions/{id}:resolve}. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "ResolveContradiction")
public record ResolveContradictionBody(
        @Nullable
        @Schema(
                description =
                        "one_wins (the other side superseded, or rejected when a proposal), keep_both "
                                + "(both at low confidence, linked contradicts both ways) or ask_user (a question for the user in /context)",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String resolution,

        @Nullable @Schema(name = "winner_id", description = "one_wins: the side that stays") @JsonProperty("winner_id")
        String winnerId) {}
