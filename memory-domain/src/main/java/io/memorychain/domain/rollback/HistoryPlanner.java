package io.memorychain.domain.rollback;

import io.memorychain.avro.RollbackScope;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Plans a rollback (docs/architecture.md §17) from views that hold every version of the space's memories and edges
 * ({@link ChainHistory}), reading only the events after the target instead of replaying the chain: the same plan, and
 * the same digest, as {@link RollbackPlanner} over the chain up to the views' head. Space, memory and actor scopes; a
 * session or reflection rollback finds its target by reading the chain, so it has no plan here. Pure: no clock, no I/O
 * beyond the history it is given.
 */
public final class HistoryPlanner {

    private HistoryPlanner() {}

    /** The plan, or empty for a scope this planner does not take (the caller replays the chain). */
    public static Optional<RollbackPlan> plan(String space, RollbackSpec spec, ChainHistory history) {
        if (spec.scope() == RollbackScope.SESSION || spec.scope() == RollbackScope.REFLECTION) {
            return Optional.empty();
        }
        long head = history.head();
        long target = target(spec, history, head);
        TreeSet<String> memories = new TreeSet<>();
        TreeSet<String> edges = new TreeSet<>();
        long[] read = {0};
        history.steps(target, step -> {
            read[0]++;
            if (inScope(spec, step)) {
                RollbackPlanner.touch(spec, step.changed(), step.edge(), memories, edges);
            }
        });
        return Optional.of(RollbackPlanner.build(
                space,
                spec,
                target,
                head,
                read[0],
                memories,
                edges,
                new RollbackPlanner.States(
                        id -> history.memoryAt(id, target),
                        id -> history.memoryAt(id, head),
                        (from, to) -> history.edgeAt(from, to, target),
                        (from, to) -> history.edgeAt(from, to, head))));
    }

    /**
     * The seq whose state is restored: the one before the first event undone ({@link RollbackPlanner}'s rule), or the
     * head when no event is undone.
     */
    private static long target(RollbackSpec spec, ChainHistory history, long head) {
        return switch (spec.scope()) {
            case SPACE, MEMORY ->
                spec.toSeq() != null ? Math.min(spec.toSeq(), head) : lastAtOrBefore(spec, history, head);
            case ACTOR -> spec.toSeq() <= head ? spec.toSeq() - 1 : head;
            default -> throw new IllegalArgumentException("scope " + spec.scope());
        };
    }

    /**
     * The last seq that occurred at or before the spec's time (0 when none): a binary search, as the sequencer never
     * lets a space's {@code occurred_at} go back.
     */
    private static long lastAtOrBefore(RollbackSpec spec, ChainHistory history, long head) {
        long lo = 0;
        long hi = head;
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (history.step(mid).occurredAt().isAfter(spec.toTime())) {
                hi = mid - 1;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    private static boolean inScope(RollbackSpec spec, ChainHistory.Step step) {
        return spec.scope() != RollbackScope.ACTOR
                || step.seq() <= RollbackPlanner.rangeEnd(spec) && RollbackPlanner.actorMatches(spec, step.actor());
    }
}
