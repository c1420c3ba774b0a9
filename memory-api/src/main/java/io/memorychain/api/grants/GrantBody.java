package io.memorychain.api.grants;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** {@code POST /v1/spaces/{space}/grants}: an admin asks to read content (docs/architecture.md §13). */
@Serdeable
@Schema(name = "RequestGrant")
public record GrantBody(
        @Nullable @Schema(description = "The admin principal who may read under it; default: the caller")
        String grantee,

        @Nullable @Schema(description = "Why the content must be read (required)")
        String purpose,

        @Nullable
        @JsonProperty("duration_seconds")
        @Schema(name = "duration_seconds", description = "1 to 86400 (24 h), counted from the consent")
        Long durationSeconds,

        @Nullable
        @JsonProperty("memory_ids")
        @Schema(name = "memory_ids", description = "The memories covered; absent or empty: the whole space")
        List<String> memoryIds) {}
