package io.memorychain.domain.refinement;

import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryProtected;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementCounts;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.view.RefinementSession;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code evolve(session, event)} for refinement sessions: the sequencer keeps the open session with it (its write
 * model), the projection every session (the refinement view), so both count the same. Pure: reads only the event and
 * the prior session. An edit belongs to a session when its event carries the session's id ({@code session_id} of the
 * request); edits of other actors outside the session are not counted.
 */
public final class RefinementState {

    private RefinementState() {}

    /** The session an event belongs to: the event's session id, or the one its refinement payload names; else null. */
    public static String sessionOf(MemoryEvent event) {
        if (event.getSessionId() != null) {
            return event.getSessionId();
        }
        Object p = event.getPayload();
        if (p instanceof DuplicatesRemoved d) {
            return d.getSessionId();
        } else if (p instanceof RefinementStarted s) {
            return s.getSessionId();
        } else if (p instanceof RefinementCompleted c) {
            return c.getSessionId();
        }
        return null;
    }

    /**
     * @param open the space's open session before the event, or null
     * @return the session the event started, changed or completed (a completed session has {@code completed_seq});
     *     {@code open} itself when the event does not concern it
     */
    public static RefinementSession evolve(RefinementSession open, MemoryEvent event) {
        Object p = event.getPayload();
        if (p instanceof RefinementStarted s) {
            RefinementCounts counts = RefinementCounts.newBuilder()
                    .setDuplicatesRemoved(s.getDuplicatesRemoved())
                    .build();
            return RefinementSession.newBuilder()
                    .setSessionId(s.getSessionId())
                    .setSpace(event.getSpace())
                    .setTrigger(s.getTrigger())
                    .setStartedSeq(event.getSeq())
                    .setStartedAt(event.getOccurredAt())
                    .setStartedBy(event.getActor())
                    .setCoreTokens(s.getCoreTokens())
                    .setTargetTokens(s.getTargetTokens())
                    .setLedgerSize(s.getLedgerSize())
                    .setReason(s.getReason())
                    .setCounts(counts)
                    .setProtectedIds(List.of())
                    .build();
        }
        if (open == null || !open.getSessionId().equals(sessionOf(event))) {
            return open;
        }
        RefinementSession next = RefinementSession.newBuilder(open).build();
        RefinementCounts counts = RefinementCounts.newBuilder(open.getCounts()).build();
        next.setCounts(counts);
        if (p instanceof RefinementCompleted c) {
            next.setCompletedSeq(event.getSeq());
            next.setCompletedAt(event.getOccurredAt());
            next.setCompletedBy(event.getActor());
            next.setSummary(c.getSummary());
            next.setAgentSummary(c.getAgentSummary());
            next.setJournalId(c.getJournal().getId());
            next.setTokensAfter(c.getTokensAfter());
        } else if (p instanceof MemoriesConsolidated c) {
            counts.setConsolidations(counts.getConsolidations() + 1);
            counts.setConsolidatedInputs(
                    counts.getConsolidatedInputs() + c.getSupersededIds().size());
        } else if (p instanceof MemoryUpdated) {
            counts.setUpdates(counts.getUpdates() + 1);
        } else if (p instanceof MemoryDeleted) {
            counts.setDeletions(counts.getDeletions() + 1);
        } else if (p instanceof MemoryProtected m) {
            counts.setProtections(counts.getProtections() + 1);
            List<String> ids = new ArrayList<>(open.getProtectedIds());
            ids.add(m.getMemoryId());
            next.setProtectedIds(ids);
        } else {
            return open;
        }
        return next;
    }
}
