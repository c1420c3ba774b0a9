package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** POST /v1/spaces/{space}/memories. Unknown properties are rejected (a typo must not silently drop a field). */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "CreateMemory", description = "A new memory. Only content is required.")
public record CreateMemoryBody(
        @Nullable
        @Schema(
                description = "The memory text; not blank, at most memory.max-content-bytes UTF-8 bytes",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String content,

        @Nullable
        @Schema(
                description =
                        "semantic (default), episodic, procedural, insight, journal or entity (blocks use PUT /blocks/{label})")
        String kind,

        @Nullable @Schema(description = "working (default) or core")
        String tier,

        @Nullable String category,

        @Nullable @Schema(description = "One-line summary used in listings")
        String summary,

        @Nullable List<String> tags,

        @Nullable @Schema(description = "1 (trivial) to 5 (critical); default 3", minimum = "1", maximum = "5")
        Integer importance,

        @Nullable @Schema(description = "high, medium (default) or low")
        String confidence,

        @Nullable String source,

        @Nullable @Schema(name = "user_id") @JsonProperty("user_id")
        String userId,

        @Nullable @Schema(name = "agent_id") @JsonProperty("agent_id")
        String agentId,

        @Nullable @Schema(name = "run_id") @JsonProperty("run_id")
        String runId,

        @Nullable @Schema(name = "actor_id") @JsonProperty("actor_id")
        String actorId,

        @Nullable @Schema(name = "thread_id") @JsonProperty("thread_id")
        String threadId,

        @Nullable String role,

        @Nullable
        @JsonProperty("created_at")
        @Schema(
                name = "created_at",
                description = "Origin date (ISO-8601, e.g. 2024-05-01T10:00:00Z) for imported memories; default now")
        String createdAt,

        @Nullable @Schema(description = "Create pinned (never decays); default false")
        Boolean pinned) {}
