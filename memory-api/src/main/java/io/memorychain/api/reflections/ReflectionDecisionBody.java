package io.memorychain.api.reflections;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The body of {@code POST /reflections/{id}:decide} and the arguments of the {@code reflection_decide} tool. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "DecideReflection")
public record ReflectionDecisionBody(
        @Schema(
                description =
                        "approve (every change), approve_with_changes (edited_changes, optionally change_ids), partial (change_ids) or reject")
        String decision,

        @Nullable @Schema(description = "Why; kept in the reflection log")
        String reason,

        @Nullable
        @JsonProperty("change_ids")
        @Schema(
                name = "change_ids",
                description = "partial: the changes approved; approve_with_changes: a subset (default all)")
        List<String> changeIds,

        @Nullable
        @JsonProperty("edited_changes")
        @Schema(
                name = "edited_changes",
                description =
                        "approve_with_changes: changes of the reflection with edited content (same change_id, type and target)")
        List<ReflectionChangeJson> editedChanges) {}
