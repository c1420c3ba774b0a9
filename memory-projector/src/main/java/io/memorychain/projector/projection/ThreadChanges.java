package io.memorychain.projector.projection;

import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.Purges;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The delta-header change (docs/architecture.md §6) an event makes, if any: created, updated, merged, deleted or
 * restored, and the lifecycle's transitions (docs/architecture.md §12: "delta surfaces transition once"): fading,
 * dormant, archived, reactivated (a decay status back to active) and expired (TTL soft-delete). Each event is one
 * change at one revision (an erasure's cascade one more per memory it erased or restored: {@link #cascaded}), so a
 * caller passing {@code since_rev} sees a transition once. Flag changes (pin, protect) make none. A change belongs to
 * the thread of the memory it is about ({@code thread_id}, or {@code ""} for memories outside any thread).
 */
final class ThreadChanges {

    static final int TEXT_LENGTH = 80;

    private ThreadChanges() {}

    /** The change, with rev 0 (the caller assigns the thread's next revision). */
    static Optional<ThreadChange> of(MemoryEvent event, Function<String, Memory> after) {
        Object p = event.getPayload();
        if (p instanceof MemoryCreated c) {
            return Optional.of(change(event, "created", c.getMemory(), text(c.getMemory())));
        } else if (p instanceof MemoryUpdated u) {
            return Optional.of(change(event, "updated", u.getAfter(), text(u.getAfter())));
        } else if (p instanceof BlockUpdated b) {
            return Optional.of(change(event, "updated", b.getMemory(), b.getLabel() + ": " + text(b.getMemory())));
        } else if (p instanceof MemoriesConsolidated m) {
            return Optional.of(change(
                    event,
                    "merged",
                    m.getCreated(),
                    "Combined " + m.getSupersededIds().size() + " notes: " + text(m.getCreated())));
        } else if (p instanceof MemoryDeleted d) {
            Memory m = after.apply(d.getMemoryId());
            return Optional.of(change(event, "deleted", m, text(m)));
        } else if (p instanceof MemoryRestored r) {
            Memory m = after.apply(r.getMemoryId());
            return Optional.of(change(event, "restored", m, text(m)));
        } else if (p instanceof DecayTransitioned d) {
            Memory m = after.apply(d.getMemoryId());
            String kind = d.getTo() == DecayStatus.ACTIVE
                    ? "reactivated"
                    : d.getTo().name().toLowerCase(Locale.ROOT);
            return Optional.of(change(event, kind, m, text(m)));
        } else if (p instanceof MemoryExpired x) {
            Memory m = after.apply(x.getMemoryId());
            return Optional.of(change(event, "expired", m, text(m)));
        } else if (p instanceof io.memorychain.avro.MemoryPurged x) {
            Memory m = after.apply(x.getMemoryId());
            return Optional.of(change(event, "purged", m, Purges.MARKER));
        } else if (p instanceof io.memorychain.avro.MemoryErased x) {
            Memory m = after.apply(x.getMemoryId());
            return Optional.of(change(event, "erased", m, Purges.ERASED));
        }
        return Optional.empty();
    }

    /**
     * The further changes of an erasure's cascade (docs/architecture.md §12), after {@link #of}'s for the erased
     * memory: each memory consolidated from it, erased too, and each of their other inputs, restored; one change each,
     * in its own thread. Empty for any other event.
     */
    static List<ThreadChange> cascaded(MemoryEvent event, List<Evolver.Change> changes) {
        if (!(event.getPayload() instanceof io.memorychain.avro.MemoryErased) || changes.size() < 2) {
            return List.of();
        }
        List<ThreadChange> out = new ArrayList<>(changes.size() - 1);
        for (Evolver.Change c : changes.subList(1, changes.size())) {
            Memory m = c.after();
            out.add(
                    Purges.isErased(m)
                            ? change(event, "erased", m, Purges.ERASED)
                            : change(event, "restored", m, text(m)));
        }
        return out;
    }

    static String thread(Memory memory) {
        return memory.getThreadId() == null ? "" : memory.getThreadId();
    }

    private static ThreadChange change(MemoryEvent event, String kind, Memory memory, String text) {
        return new ThreadChange(
                0L, event.getSeq(), kind, memory.getId(), memory.getCategory(), memory.getImportance(), text);
    }

    private static String text(Memory m) {
        return EventDescriptions.snippet(m.getSummary() != null ? m.getSummary() : m.getContent(), TEXT_LENGTH);
    }
}
