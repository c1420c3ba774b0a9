package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** PATCH /v1/spaces/{space}/memories/{id}: absent fields stay as they are; at least one must be given. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "UpdateMemory", description = "Fields to change; absent fields stay as they are.")
public record UpdateMemoryBody(
        @Nullable String content,
        @Nullable String summary,

        @Nullable @Schema(description = "Replaces the tag list")
        List<String> tags,

        @Nullable @Schema(minimum = "1", maximum = "5") Integer importance,

        @Nullable @Schema(description = "high, medium or low")
        String confidence,

        @Nullable String category,
        @Nullable @Schema(description = "core or working") String tier,

        @Nullable
        @JsonProperty("expected_version")
        @Schema(
                name = "expected_version",
                description = "Fail with 409 VERSION_CONFLICT unless the memory is at this version (or use If-Match)")
        Integer expectedVersion) {}
