package io.memorychain.api.history;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.domain.support.LruMap;
import io.memorychain.projector.view.MemoryViews;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ids of every memory that was ever in the core (a block, or a core-tier memory) per space: the only memories a
 * point-in-time core can hold. Counted once per space from the history view, then brought up to date from the audit
 * log's entries since (the log is append-only), so a point-in-time core reads a few histories, not the whole space. Ids
 * only: no content is kept.
 */
final class CoreIds {

    /** Spaces kept, least recently asked dropped first. */
    static final int SPACES_KEPT = 256;

    private static final int AUDIT_BATCH = 500;

    private final Map<String, Known> spaces = new LruMap<>(SPACES_KEPT);

    static boolean core(Memory m) {
        return m.getKind() == MemoryKind.BLOCK || m.getTier() == Tier.CORE;
    }

    /** The ids, in id order, of the space's memories that were in the core at some point up to its head. */
    List<String> ever(MemoryViews views, String space) {
        Known known;
        synchronized (spaces) {
            known = spaces.computeIfAbsent(space, s -> new Known());
        }
        synchronized (known) {
            known.catchUp(views, space);
            return List.copyOf(known.ids);
        }
    }

    private static boolean wasCore(List<HistoryEntry> history) {
        return history.stream().anyMatch(CoreIds::core);
    }

    /** Whether the entry's memory was in the core before or after its event. */
    private static boolean core(HistoryEntry e) {
        return e.getAfter() != null && core(e.getAfter()) || e.getBefore() != null && core(e.getBefore());
    }

    private static final class Known {
        private final Set<String> ids = new TreeSet<>();
        private long seq = -1;

        void catchUp(MemoryViews views, String space) {
            if (seq < 0) {
                seq = views.appliedSeq(space);
                views.histories(space, null, history -> {
                    history.stream()
                            .filter(CoreIds::core)
                            .findFirst()
                            .map(e -> e.getAfter() != null
                                    ? e.getAfter().getId()
                                    : e.getBefore().getId())
                            .ifPresent(ids::add);
                    return true;
                });
                return;
            }
            List<AuditEntry> batch;
            do {
                batch = views.audit(space, seq, AUDIT_BATCH);
                for (AuditEntry e : batch) {
                    for (String id : e.getMemoryIds()) {
                        if (!ids.contains(id) && wasCore(views.history(space, id))) {
                            ids.add(id);
                        }
                    }
                    seq = e.getSeq();
                }
            } while (batch.size() == AUDIT_BATCH);
        }
    }
}
