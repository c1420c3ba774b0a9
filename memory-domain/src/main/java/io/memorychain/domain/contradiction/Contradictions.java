package io.memorychain.domain.contradiction;

import io.memorychain.avro.ContradictionFlagged;
import io.memorychain.avro.ContradictionResolution;
import io.memorychain.avro.ContradictionResolved;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.avro.view.SpaceGovernance;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code evolve(contradictions, event)} for flagged contradictions (docs/architecture.md §10, seed 001 §13.6), kept in
 * the space's governance record so the sequencer and the projection see the same state. A contradiction is open until
 * it is resolved by ONE_WINS or KEEP_BOTH; ASK_USER keeps it open as a question for the user. Pure.
 */
public final class Contradictions {

    private Contradictions() {}

    public static boolean isContradictionEvent(Object payload) {
        return payload instanceof ContradictionFlagged || payload instanceof ContradictionResolved;
    }

    /** The contradictions after the event (the event must be a contradiction event). */
    public static List<Contradiction> evolve(List<Contradiction> before, MemoryEvent event) {
        List<Contradiction> out = new ArrayList<>(before);
        Object payload = event.getPayload();
        if (payload instanceof ContradictionFlagged f) {
            out.add(Contradiction.newBuilder()
                    .setId(f.getContradictionId())
                    .setFirstId(f.getFirstId())
                    .setSecondId(f.getSecondId())
                    .setSimilarity(f.getSimilarity())
                    .setFlaggedSeq(event.getSeq())
                    .setFlaggedAt(event.getOccurredAt())
                    .setFlaggedBy(event.getActor())
                    .build());
            return out;
        }
        ContradictionResolved r = (ContradictionResolved) payload;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).getId().equals(r.getContradictionId())) {
                out.set(
                        i,
                        Contradiction.newBuilder(out.get(i))
                                .setResolution(r.getResolution())
                                .setWinnerId(r.getWinnerId())
                                .setResolvedSeq(event.getSeq())
                                .setResolvedBy(event.getActor())
                                .build());
                return out;
            }
        }
        throw new IllegalStateException("Event " + event.getSpace() + "#" + event.getSeq()
                + " resolves unknown contradiction " + r.getContradictionId());
    }

    /** Open: never resolved, or asked of the user (still waiting for an answer). */
    public static boolean isOpen(Contradiction c) {
        return c.getResolution() == null || c.getResolution() == ContradictionResolution.ASK_USER;
    }

    public static Optional<Contradiction> find(SpaceGovernance g, String id) {
        return g == null
                ? Optional.empty()
                : g.getContradictions().stream()
                        .filter(c -> c.getId().equals(id))
                        .findFirst();
    }

    /** The open contradictions, oldest first. */
    public static List<Contradiction> open(SpaceGovernance g) {
        return g == null
                ? List.of()
                : g.getContradictions().stream().filter(Contradictions::isOpen).toList();
    }

    /** The contradictions waiting for the user's answer (ASK_USER), oldest first: what /context shows. */
    public static List<Contradiction> askingUser(SpaceGovernance g) {
        return g == null
                ? List.of()
                : g.getContradictions().stream()
                        .filter(c -> c.getResolution() == ContradictionResolution.ASK_USER)
                        .toList();
    }

    /** The open contradiction between these two ids (either order), if any. */
    public static Optional<Contradiction> openBetween(SpaceGovernance g, String a, String b) {
        return open(g).stream()
                .filter(c -> c.getFirstId().equals(a) && c.getSecondId().equals(b)
                        || c.getFirstId().equals(b) && c.getSecondId().equals(a))
                .findFirst();
    }

    /** The open contradictions one id is a side of (the flags of that memory or proposal). */
    public static List<Contradiction> openOf(SpaceGovernance g, String id) {
        return open(g).stream()
                .filter(c -> c.getFirstId().equals(id) || c.getSecondId().equals(id))
                .toList();
    }
}
