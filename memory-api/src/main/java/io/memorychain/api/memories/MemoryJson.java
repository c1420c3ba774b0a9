package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.Memory;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/** A memory as the REST API shows it: the Avro snapshot's fields, snake_case, enums in lower case, ISO-8601 times. */
@Serdeable
@Schema(name = "Memory")
public record MemoryJson(
        String id,
        String space,

        @Schema(description = "semantic, episodic, procedural, insight, journal, block or entity")
        String kind,

        @Schema(description = "core or working") String tier,

        @Nullable @Schema(name = "block_label") @JsonProperty("block_label")
        String blockLabel,

        @Nullable String category,
        String content,
        @Nullable String summary,
        List<String> tags,
        int importance,
        @Schema(description = "high, medium or low") String confidence,
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

        @Schema(name = "created_at") @JsonProperty("created_at")
        String createdAt,

        @Schema(name = "updated_at") @JsonProperty("updated_at")
        String updatedAt,

        int version,

        @Schema(description = "active, superseded, soft_deleted or archived")
        String state,

        @Nullable @Schema(name = "superseded_by") @JsonProperty("superseded_by")
        String supersededBy,

        List<String> supersedes,
        boolean pinned,
        boolean constitutional,

        @Schema(name = "content_hash") @JsonProperty("content_hash")
        String contentHash,

        @Schema(
                name = "decay_status",
                description = "decay status recorded on the chain by the lifecycle worker: active, fading, dormant or "
                        + "archived (docs/architecture.md §7)")
        @JsonProperty("decay_status")
        String decayStatus,

        @Schema(
                name = "purge_at",
                description = "TTL-expired (soft-deleted) memories: when they may be purged; null keeps them "
                        + "indefinitely")
        @Nullable
        @JsonProperty("purge_at")
        String purgeAt,

        @Nullable
        @Schema(
                description =
                        "Reading one memory as it is now (not a point-in-time read): the open "
                                + "contradictions it is a side of (docs/architecture.md §10); absent when there are none, and elsewhere")
        MemoryContradictions contradictions) {

    public static MemoryJson of(Memory m) {
        if (m == null) {
            return null;
        }
        return new MemoryJson(
                m.getId(),
                m.getSpace(),
                Enums.json(m.getKind()),
                Enums.json(m.getTier()),
                m.getBlockLabel(),
                m.getCategory(),
                m.getContent(),
                m.getSummary(),
                List.copyOf(m.getTags()),
                m.getImportance(),
                Enums.json(m.getConfidence()),
                m.getSource(),
                m.getUserId(),
                m.getAgentId(),
                m.getRunId(),
                m.getActorId(),
                m.getThreadId(),
                m.getRole(),
                iso(m.getCreatedAt()),
                iso(m.getUpdatedAt()),
                m.getVersion(),
                Enums.json(m.getState()),
                m.getSupersededBy(),
                List.copyOf(m.getSupersedes()),
                m.getPinned(),
                m.getConstitutional(),
                m.getContentHash(),
                Enums.json(m.getDecayStatus()),
                iso(m.getPurgeAt()),
                null);
    }

    /** The same memory with the open contradictions it is a side of (the read of one memory); unchanged for none. */
    public MemoryJson withContradictions(List<String> ids) {
        if (ids.isEmpty()) {
            return this;
        }
        return new MemoryJson(
                id,
                space,
                kind,
                tier,
                blockLabel,
                category,
                content,
                summary,
                tags,
                importance,
                confidence,
                source,
                userId,
                agentId,
                runId,
                actorId,
                threadId,
                role,
                createdAt,
                updatedAt,
                version,
                state,
                supersededBy,
                supersedes,
                pinned,
                constitutional,
                contentHash,
                decayStatus,
                purgeAt,
                new MemoryContradictions(List.copyOf(ids)));
    }

    static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
