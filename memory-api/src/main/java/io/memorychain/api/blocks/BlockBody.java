package io.memorychain.api.blocks;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** PUT /v1/spaces/{space}/blocks/{label}: the new version of a labelled core block. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "UpdateBlock")
public record BlockBody(
        @Nullable
        @Schema(description = "The whole new block text; not blank", requiredMode = Schema.RequiredMode.REQUIRED)
        String content,

        @Nullable @Schema(description = "Whether the block is injected as core memory; default true")
        Boolean core,

        @Nullable
        @JsonProperty("expected_version")
        @Schema(name = "expected_version", description = "The block version this write replaces (or If-Match)")
        Integer expectedVersion) {}
