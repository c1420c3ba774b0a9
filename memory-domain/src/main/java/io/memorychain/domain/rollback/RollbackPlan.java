package io.memorychain.domain.rollback;

import io.memorychain.avro.Memory;
import io.memorychain.avro.RollbackEdge;
import io.memorychain.avro.RollbackScope;
import io.memorychain.avro.RollbackSpace;
import io.memorychain.avro.RollbackTarget;
import java.time.Instant;
import java.util.List;

/**
 * A planned rollback (docs/architecture.md §17): the dry run's diff, memory by memory and edge by edge, and the request
 * that applies it.
 *
 * @param targetSeq the seq whose state is restored
 * @param targetTime the time the target was asked as, or null
 * @param rangeToSeq ACTOR: the last seq undone, else null
 * @param headSeq the space's head when planned: applying fails with VERSION_CONFLICT once it moved
 * @param eventsRead events of the space the plan replayed
 * @param digest hex SHA-256 of the plan
 */
public record RollbackPlan(
        String space,
        RollbackScope scope,
        String scopeId,
        long targetSeq,
        Instant targetTime,
        Long rangeToSeq,
        long headSeq,
        long eventsRead,
        List<MemoryChange> memories,
        List<EdgeChange> edges,
        String digest) {

    public RollbackPlan {
        memories = List.copyOf(memories);
        edges = List.copyOf(edges);
    }

    public boolean isEmpty() {
        return memories.isEmpty() && edges.isEmpty();
    }

    /** The request op that applies the plan. */
    public RollbackSpace toRequest(String reason) {
        return RollbackSpace.newBuilder()
                .setScope(scope)
                .setScopeId(scopeId)
                .setTargetSeq(targetSeq)
                .setTargetTime(targetTime)
                .setRangeToSeq(rangeToSeq)
                .setReason(reason)
                .setHeadSeq(headSeq)
                .setPlanDigest(digest)
                .setMemories(memories.stream()
                        .map(m -> new RollbackTarget(m.memoryId(), m.target()))
                        .toList())
                .setEdges(edges.stream()
                        .map(e -> new RollbackEdge(e.fromId(), e.toId(), e.targetType(), e.targetStrength()))
                        .toList())
                .build();
    }

    /** What a rollback does to one memory. */
    public enum Action {
        /** It did not exist at the target: soft-deleted ({@code MemoryDeleted}). */
        DELETE,
        /** It is set back to its target snapshot ({@code MemoryUpdated} with before and after). */
        RESTORE
    }

    /**
     * @param current its snapshot now
     * @param target its snapshot at the target seq; null for DELETE
     */
    public record MemoryChange(String memoryId, Action action, Memory current, Memory target) {

        /** The event the sequencer will append for it. */
        public String event() {
            return action == Action.DELETE ? "MemoryDeleted" : "MemoryUpdated";
        }
    }

    /**
     * @param currentType the edge's type now (null: none)
     * @param targetType its type at the target (null: none, it is unlinked)
     */
    public record EdgeChange(String fromId, String toId, String currentType, String targetType, double targetStrength) {

        /** The events the sequencer will append for it. */
        public List<String> events() {
            if (targetType == null) {
                return List.of("MemoriesUnlinked");
            }
            return currentType == null ? List.of("MemoriesLinked") : List.of("MemoriesUnlinked", "MemoriesLinked");
        }
    }
}
