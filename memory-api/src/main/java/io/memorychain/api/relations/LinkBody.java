package io.memorychain.api.relations;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** POST /v1/spaces/{space}/memories/{id}/links: a relation edge from the memory to another. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "Link")
public record LinkBody(
        @Nullable @Schema(description = "Target memory id", requiredMode = Schema.RequiredMode.REQUIRED)
        String to,

        @Nullable
        @Schema(
                description = "related_to (default, symmetric) or a typed relation: develops, uses, "
                        + "part-of, depends-on, decided-on, prefers, avoids, ... ([a-z][a-z0-9_-]{0,63})")
        String type,

        @Nullable @Schema(description = "Strength in (0, 1], default 1.0")
        Double strength) {}
