package io.memorychain.api.reflections;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One proposed change of a reflection (docs/architecture.md §18), as shown and as edited in a decision. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "ReflectionChange")
public record ReflectionChangeJson(
        @JsonProperty("change_id")
        @Schema(name = "change_id", description = "c1, c2, ...: what partial approvals and edits name")
        String changeId,

        @Schema(
                description =
                        "create_memory, update_memory, update_block, link_memories, archive_memory or create_procedure")
        String type,

        @Nullable String reason,

        @Nullable
        @JsonProperty("memory_id")
        @Schema(
                name = "memory_id",
                description = "update_memory, archive_memory: the memory; link_memories: the source")
        String memoryId,

        @Nullable @JsonProperty("to_id") @Schema(name = "to_id", description = "link_memories: the target")
        String toId,

        @Nullable @Schema(description = "update_block: the block label")
        String label,

        @Nullable String content,
        @Nullable String summary,
        @Nullable String category,
        @Nullable List<String> tags,
        @Nullable Integer importance,

        @Nullable @Schema(name = "relation_type") @JsonProperty("relation_type")
        String relationType) {

    static ReflectionChangeJson of(ReflectionChange c) {
        return new ReflectionChangeJson(
                c.getChangeId(),
                Enums.json(c.getType()),
                c.getReason(),
                c.getMemoryId(),
                c.getToId(),
                c.getLabel(),
                c.getContent(),
                c.getSummary(),
                c.getCategory(),
                List.copyOf(c.getTags()),
                c.getImportance(),
                c.getRelationType());
    }

    /** The edit as the decision carries it; 400 INVALID_ARGUMENT for a missing id or an unknown type. */
    ReflectionChange toChange() {
        if (changeId == null || changeId.isBlank()) {
            throw ApiException.invalid("edited_changes[].change_id is required");
        }
        return ReflectionChange.newBuilder()
                .setChangeId(changeId)
                .setType(Enums.parse(ReflectionChangeType.class, "edited_changes[].type", type))
                .setReason(reason == null ? "edited by the reviewer" : reason)
                .setMemoryId(memoryId)
                .setToId(toId)
                .setLabel(label)
                .setContent(content)
                .setSummary(summary)
                .setCategory(category)
                .setTags(tags == null ? List.of() : List.copyOf(tags))
                .setImportance(importance)
                .setRelationType(relationType)
                .build();
    }
}
