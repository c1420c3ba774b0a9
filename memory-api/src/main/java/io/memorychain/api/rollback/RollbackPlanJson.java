package io.memorychain.api.rollback;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Enums;
import io.memorychain.domain.rollback.RollbackPlan;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** A rollback plan (the dry run's diff), or an applied one with the seq and request id of its events. */
@Serdeable
@Schema(name = "RollbackPlan")
public record RollbackPlanJson(
        String space,
        @Schema(description = "space, memory, session or actor") String scope,
        @Nullable @JsonProperty("scope_id") String scopeId,
        @Schema(description = "The seq whose state is restored") @JsonProperty("target_seq") long targetSeq,
        @Nullable @JsonProperty("target_time") String targetTime,
        @Nullable @JsonProperty("range_to_seq") Long rangeToSeq,
        @Schema(description = "The head the plan was computed at; applying fails with VERSION_CONFLICT once it moved") @JsonProperty("head_seq") long headSeq,
        @JsonProperty("events_read") long eventsRead,
        @JsonProperty("plan_digest") String planDigest,
        List<MemoryDiff> memories,
        List<EdgeDiff> edges,
        boolean applied,
        @Nullable @Schema(description = "applied: the seq of the last compensating event") Long seq,
        @Nullable @JsonProperty("request_id") String requestId) {

    /** One memory's change: the event the sequencer appends for it, and its snapshot now and after. */
    @Serdeable
    @Schema(name = "RollbackMemoryDiff")
    public record MemoryDiff(String id, @Schema(description = "delete (did not exist at the target) or restore") String action,
                             @Schema(description = "MemoryDeleted or MemoryUpdated") String event, MemoryJson before,
                             @Nullable @Schema(description = "the target snapshot (version and times are set when applied)") MemoryJson after) {
    }

    /** One relation edge's change. */
    @Serdeable
    @Schema(name = "RollbackEdgeDiff")
    public record EdgeDiff(@JsonProperty("from_id") String fromId, @JsonProperty("to_id") String toId,
                           @Nullable @JsonProperty("before_type") String beforeType,
                           @Nullable @JsonProperty("after_type") String afterType,
                           @JsonProperty("after_strength") double afterStrength, List<String> events) {
    }

    public static RollbackPlanJson of(RollbackPlan plan) {
        return of(plan, false, null, null);
    }

    public static RollbackPlanJson of(Rollbacks.Applied applied) {
        return of(applied.plan(), true, applied.seq(), applied.requestId());
    }

    private static RollbackPlanJson of(RollbackPlan plan, boolean applied, Long seq, String requestId) {
        return new RollbackPlanJson(plan.space(), Enums.json(plan.scope()), plan.scopeId(), plan.targetSeq(),
                plan.targetTime() == null ? null : plan.targetTime().toString(), plan.rangeToSeq(), plan.headSeq(),
                plan.eventsRead(), plan.digest(),
                plan.memories().stream().map(m -> new MemoryDiff(m.memoryId(), m.action().name().toLowerCase(
                        java.util.Locale.ROOT), m.event(), MemoryJson.of(m.current()), MemoryJson.of(m.target())))
                        .toList(),
                plan.edges().stream().map(e -> new EdgeDiff(e.fromId(), e.toId(), e.currentType(), e.targetType(),
                        e.targetStrength(), e.events())).toList(),
                applied, seq, requestId);
    }
}
