package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** POST /v1/spaces/{space}/consolidations. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(
        name = "Consolidate",
        description =
                "Supersede the given active memories by one new memory, atomically. The new memory keeps the earliest created_at.")
public record ConsolidateBody(
        @Nullable
        @Schema(
                description = "Ids of the memories to supersede (distinct, active, not constitutional)",
                requiredMode = Schema.RequiredMode.REQUIRED)
        List<String> ids,

        @Nullable @Schema(description = "The consolidated understanding", requiredMode = Schema.RequiredMode.REQUIRED)
        String content,

        @Nullable String summary,
        @Nullable String reason,

        @Nullable @Schema(description = "Default: the first input's category")
        String category,

        @Nullable @Schema(description = "Default: the union of the inputs' tags")
        List<String> tags,

        @Nullable @Schema(description = "Default: the inputs' maximum", minimum = "1", maximum = "5")
        Integer importance) {}
