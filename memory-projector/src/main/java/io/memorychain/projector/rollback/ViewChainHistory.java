package io.memorychain.projector.rollback;

import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.EdgeVersion;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.rollback.ChainHistory;
import io.memorychain.projector.view.MemoryViews;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A space's {@link ChainHistory} from the projection's views (docs/architecture.md §17): the audit log says what each
 * event touched, {@code view-history} holds every snapshot of each memory and {@code view-edge-history} every version
 * of each edge. Stands at the views' applied seq when made: later entries are ignored, so the answers are of one chain
 * prefix while the projection goes on. One per plan: it keeps the histories it read.
 */
public final class ViewChainHistory implements ChainHistory {

    private static final int PAGE = 500;
    private static final String LINKED = MemoriesLinked.getClassSchema().getName();
    private static final String UNLINKED = MemoriesUnlinked.getClassSchema().getName();

    private final MemoryViews views;
    private final String space;
    private final long head;
    private final Map<String, List<HistoryEntry>> histories = new HashMap<>();

    private ViewChainHistory(MemoryViews views, String space) {
        this.views = views;
        this.space = space;
        this.head = views.appliedSeq(space);
    }

    /** The space's history, or empty when the views do not hold every edge event since its first (plan by replay). */
    public static Optional<ChainHistory> of(MemoryViews views, String space) {
        if (!views.edgeHistoryWhole(space)) {
            return Optional.empty();
        }
        return Optional.of(new ViewChainHistory(views, space));
    }

    @Override
    public long head() {
        return head;
    }

    @Override
    public Step step(long seq) {
        List<AuditEntry> at = views.audit(space, seq - 1, 1);
        if (at.isEmpty() || at.get(0).getSeq() != seq) {
            throw new IllegalStateException("the audit view of " + space + " has no entry for seq " + seq);
        }
        return step(at.get(0));
    }

    @Override
    public void steps(long afterSeq, Consumer<Step> visit) {
        long next = afterSeq + 1;
        while (next <= head) {
            List<AuditEntry> page = views.audit(space, next - 1, PAGE);
            for (AuditEntry entry : page) {
                if (entry.getSeq() > head) {
                    return;
                }
                if (entry.getSeq() != next) {
                    throw new IllegalStateException(
                            "the audit view of " + space + " skips from seq " + next + " to " + entry.getSeq());
                }
                visit.accept(step(entry));
                next++;
            }
            if (page.size() < PAGE && next <= head) {
                throw new IllegalStateException("the audit view of " + space + " ends before seq " + head);
            }
        }
    }

    private Step step(AuditEntry entry) {
        long seq = entry.getSeq();
        List<String> ids = entry.getMemoryIds();
        Evolver.Edge edge = null;
        List<String> changed = new ArrayList<>(ids.size());
        String type = entry.getEventType();
        if (type.equals(LINKED) || type.equals(UNLINKED)) {
            // an edge event changes no memory: the projection records its two ends, from then to
            if (ids.size() != 2) {
                throw new IllegalStateException("edge event " + space + "#" + seq + " names " + ids);
            }
            edge = new Evolver.Edge(ids.get(0), ids.get(1), null, 0, type.equals(LINKED));
        } else {
            for (String id : ids) {
                if (history(id).stream().anyMatch(h -> h.getSeq() == seq) && !changed.contains(id)) {
                    changed.add(id);
                }
            }
        }
        return new Step(seq, entry.getOccurredAt(), entry.getActor(), changed, edge);
    }

    @Override
    public Memory memoryAt(String id, long seq) {
        Memory at = null;
        for (HistoryEntry entry : history(id)) {
            if (entry.getSeq() <= Math.min(seq, head)) {
                at = entry.getAfter();
            }
        }
        return at;
    }

    @Override
    public Evolver.Edge edgeAt(String fromId, String toId, long seq) {
        EdgeVersion version =
                views.edgeAt(space, fromId, toId, Math.min(seq, head)).orElse(null);
        return version == null || version.getRelationType() == null
                ? null
                : new Evolver.Edge(fromId, toId, version.getRelationType(), version.getStrength(), true);
    }

    /** The memory's entries, oldest first (the view's key order is by seq). */
    private List<HistoryEntry> history(String id) {
        return histories.computeIfAbsent(id, i -> views.history(space, i));
    }
}
