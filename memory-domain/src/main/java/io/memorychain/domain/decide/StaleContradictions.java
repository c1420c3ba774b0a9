package io.memorychain.domain.decide;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ContradictionResolution;
import io.memorychain.avro.ContradictionResolved;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.domain.contradiction.Contradictions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Closes the contradictions a change made moot (docs/architecture.md §10): when an accepted decision leaves a side of
 * an open contradiction no longer active (a memory's MemoryUpdated to any state but ACTIVE, MemoryDeleted,
 * MemoryExpired, MemoryPurged, MemoryErased) or no longer open (a proposal's ProposalResolved, whatever the decision),
 * the sequencer appends {@code ContradictionResolved MOOT} by {@code system:contradictions} after the decision's
 * events, in the same transaction. A contradiction the decision itself resolves (ONE_WINS, KEEP_BOTH) is left alone.
 * Pure: a function of the decision and the write model, so a replay decides the same.
 */
final class StaleContradictions {

    static final Actor ACTOR =
            Actor.newBuilder().setType(ActorType.SYSTEM).setId("contradictions").build();

    private StaleContradictions() {}

    static Decision close(MemoryRequest request, WriteModel model, Decision decision) {
        if (decision instanceof Decision.Reject) {
            return decision;
        }
        List<Decision.Accept> events =
                decision instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) decision);
        Set<String> gone = new LinkedHashSet<>();
        Set<String> resolvedHere = new HashSet<>();
        for (Decision.Accept e : events) {
            String id = goneSide(e.payload());
            if (id != null) {
                gone.add(id);
            }
            if (e.payload() instanceof ContradictionResolved r) {
                resolvedHere.add(r.getContradictionId());
            }
        }
        if (gone.isEmpty()) {
            return decision;
        }
        Decision.Accept last = events.get(events.size() - 1);
        List<Decision.Accept> out = new ArrayList<>(events);
        for (Contradiction c : Contradictions.open(model.governance(request.getSpace()))) {
            if (!resolvedHere.contains(c.getId())
                    && (gone.contains(c.getFirstId()) || gone.contains(c.getSecondId()))) {
                // the outcome names the last event: keep naming the change the caller asked for
                out.add(new Decision.Accept(
                        new ContradictionResolved(c.getId(), ContradictionResolution.MOOT, null),
                        last.memoryId(),
                        last.version(),
                        ACTOR));
            }
        }
        return out.size() == events.size() ? decision : new Decision.AcceptAll(out);
    }

    /** The memory or proposal id this event leaves no longer active or open, or null. */
    private static String goneSide(Object payload) {
        if (payload instanceof MemoryUpdated u) {
            return u.getAfter().getState() == MemoryState.ACTIVE
                    ? null
                    : u.getAfter().getId();
        }
        if (payload instanceof MemoryDeleted d) {
            return d.getMemoryId();
        }
        if (payload instanceof MemoryExpired x) {
            return x.getMemoryId();
        }
        if (payload instanceof MemoryPurged p) {
            return p.getMemoryId();
        }
        if (payload instanceof MemoryErased e) {
            return e.getMemoryId();
        }
        if (payload instanceof ProposalResolved p) {
            return p.getProposalId();
        }
        return null;
    }
}
