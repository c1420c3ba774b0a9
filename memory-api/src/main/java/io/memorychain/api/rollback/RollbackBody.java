package io.memorychain.api.rollback;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Body of POST /v1/spaces/{space}/rollback/plan (dry run) and POST /v1/spaces/{space}/rollback (apply). At most one of
 * memory_id, session_id, actor and reflection_id names the scope; none rolls back the whole space.
 */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "Rollback")
public record RollbackBody(
        @Nullable
        @JsonProperty("memory_id")
        @Schema(name = "memory_id", description = "Roll back one memory (with to_seq or to_time)")
        String memoryId,

        @Nullable
        @JsonProperty("session_id")
        @Schema(name = "session_id", description = "Undo one refinement session: the state before it")
        String sessionId,

        @Nullable @Schema(description = "Undo one actor's events (type:id or id) from from_seq to to_seq")
        String actor,

        @Nullable
        @JsonProperty("from_seq")
        @Schema(name = "from_seq", description = "actor: the first seq of the range")
        Long fromSeq,

        @Nullable
        @JsonProperty("to_seq")
        @Schema(
                name = "to_seq",
                description =
                        "space and memory: the seq whose state is restored; actor: the range's last seq (default: the head)")
        Long toSeq,

        @Nullable
        @JsonProperty("to_time")
        @Schema(
                name = "to_time",
                description =
                        "space and memory: restore the state at this ISO-8601 time (the last seq at or before it)")
        String toTime,

        @Nullable @Schema(description = "Why (required to apply; kept on the chain in RollbackApplied)")
        String reason,

        @Nullable
        @JsonProperty("plan_digest")
        @Schema(
                name = "plan_digest",
                description = "apply: the dry run's plan_digest; 409 VERSION_CONFLICT when the plan changed since")
        String planDigest,

        @Nullable
        @JsonProperty("reflection_id")
        @Schema(
                name = "reflection_id",
                description = "Undo what one approved reflection applied: the state before its decision")
        String reflectionId) {

    /** No field: the whole space, with no target (planning it answers 400 INVALID_ARGUMENT). */
    public static final RollbackBody NONE = new RollbackBody(null, null, null, null, null, null, null, null, null);
}
