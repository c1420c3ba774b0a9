package io.memorychain.api.rollback;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.Memory;
import io.memorychain.domain.rollback.RollbackPlan;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A rollback plan (the dry run's diff), or an applied one with the seq and request id of its events. */
@Serdeable
@Schema(name = "RollbackPlan")
public record RollbackPlanJson(
        String space,

        @Schema(description = "space, memory, session, actor or reflection")
        String scope,

        @Nullable @Schema(name = "scope_id") @JsonProperty("scope_id")
        String scopeId,

        @Schema(name = "target_seq", description = "The seq whose state is restored") @JsonProperty("target_seq")
        long targetSeq,

        @Nullable @Schema(name = "target_time") @JsonProperty("target_time")
        String targetTime,

        @Nullable @Schema(name = "range_to_seq") @JsonProperty("range_to_seq")
        Long rangeToSeq,

        @Schema(
                name = "head_seq",
                description = "The head the plan was computed at; applying fails with VERSION_CONFLICT once it moved")
        @JsonProperty("head_seq")
        long headSeq,

        @Schema(name = "events_read") @JsonProperty("events_read")
        long eventsRead,

        @Schema(name = "plan_digest") @JsonProperty("plan_digest")
        String planDigest,

        List<MemoryDiff> memories,
        List<EdgeDiff> edges,
        boolean applied,

        @Nullable @Schema(description = "applied: the seq of the last compensating event")
        Long seq,

        @Nullable @Schema(name = "request_id") @JsonProperty("request_id")
        String requestId,

        @Schema(
                name = "content_shown",
                description = "false: an admin without a grant covering these memories sees which memories and fields "
                        + "change and their versions, not their content (docs/architecture.md §13)")
        @JsonProperty("content_shown")
        boolean contentShown) {

    /** One memory's change: the event the sequencer appends for it, and its snapshot now and after. */
    @Serdeable
    @Schema(name = "RollbackMemoryDiff")
    public record MemoryDiff(
            String id,

            @Schema(description = "delete (did not exist at the target) or restore")
            String action,

            @Schema(description = "MemoryDeleted or MemoryUpdated")
            String event,
            /* the memory now; null when content is not shown */ @Nullable
            MemoryJson before,
            /* the target snapshot (version and times are set when applied); null when content is not shown or deleted */
            @Nullable MemoryJson after,

            @JsonProperty("changed_fields")
            @Schema(name = "changed_fields", description = "the memory fields that change (state for a deletion)")
            List<String> changedFields,

            @Schema(name = "version_before") @JsonProperty("version_before")
            int versionBefore,

            @Nullable
            @JsonProperty("version_after")
            @Schema(name = "version_after", description = "the target snapshot's version")
            Integer versionAfter) {}

    /** One relation edge's change. */
    @Serdeable
    @Schema(name = "RollbackEdgeDiff")
    public record EdgeDiff(
            @Schema(name = "from_id") @JsonProperty("from_id")
            String fromId,

            @Schema(name = "to_id") @JsonProperty("to_id") String toId,

            @Nullable @Schema(name = "before_type") @JsonProperty("before_type")
            String beforeType,

            @Nullable @Schema(name = "after_type") @JsonProperty("after_type")
            String afterType,

            @Schema(name = "after_strength") @JsonProperty("after_strength")
            double afterStrength,

            List<String> events) {}

    public static RollbackPlanJson of(RollbackPlan plan) {
        return of(plan, false, null, null, true);
    }

    public static RollbackPlanJson of(Rollbacks.Applied applied) {
        return of(applied.plan(), true, applied.seq(), applied.requestId(), true);
    }

    /** The plan without content: ids, actions, changed fields and versions (for an admin without a grant). */
    public static RollbackPlanJson withoutContent(RollbackPlan plan) {
        return of(plan, false, null, null, false);
    }

    /** The applied plan without content. */
    public static RollbackPlanJson withoutContent(Rollbacks.Applied applied) {
        return of(applied.plan(), true, applied.seq(), applied.requestId(), false);
    }

    /** The memories whose content the plan shows. */
    public static List<String> memoryIds(RollbackPlan plan) {
        return plan.memories().stream().map(RollbackPlan.MemoryChange::memoryId).toList();
    }

    /** The fields of {@code current} that differ in {@code target} (version and update time aside); state for none. */
    static List<String> changedFields(Memory current, Memory target) {
        if (target == null) {
            return List.of("state");
        }
        List<String> changed = new ArrayList<>();
        for (org.apache.avro.Schema.Field f : Memory.getClassSchema().getFields()) {
            if (!f.name().equals("version")
                    && !f.name().equals("updated_at")
                    && !Objects.equals(current.get(f.pos()), target.get(f.pos()))) {
                changed.add(f.name());
            }
        }
        return changed;
    }

    private static RollbackPlanJson of(
            RollbackPlan plan, boolean applied, Long seq, String requestId, boolean content) {
        return new RollbackPlanJson(
                plan.space(),
                Enums.json(plan.scope()),
                plan.scopeId(),
                plan.targetSeq(),
                plan.targetTime() == null ? null : plan.targetTime().toString(),
                plan.rangeToSeq(),
                plan.headSeq(),
                plan.eventsRead(),
                plan.digest(),
                plan.memories().stream()
                        .map(m -> new MemoryDiff(
                                m.memoryId(),
                                m.action().name().toLowerCase(java.util.Locale.ROOT),
                                m.event(),
                                content ? MemoryJson.of(m.current()) : null,
                                content ? MemoryJson.of(m.target()) : null,
                                changedFields(m.current(), m.target()),
                                m.current().getVersion(),
                                m.target() == null ? null : m.target().getVersion()))
                        .toList(),
                plan.edges().stream()
                        .map(e -> new EdgeDiff(
                                e.fromId(), e.toId(), e.currentType(), e.targetType(), e.targetStrength(), e.events()))
                        .toList(),
                applied,
                seq,
                requestId,
                content);
    }
}
