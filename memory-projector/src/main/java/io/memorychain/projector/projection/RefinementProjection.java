package io.memorychain.projector.projection;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.MemoryChange;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.refinement.RefinementState;
import io.memorychain.projector.support.StoreKeys;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The refinement-session view (docs/architecture.md §9): every session of a space (open or completed, with its counts
 * and outcome), the open one by space, and each session's edit log with every changed memory before and after. Fed by
 * the projection with the changes {@link Evolver} computed for the event; a pure function of the chain.
 */
final class RefinementProjection {

    private final KeyValueStore<String, RefinementSession> sessions;
    private final KeyValueStore<String, String> open;
    private final KeyValueStore<String, RefinementEdit> edits;

    RefinementProjection(ProcessorContext<?, ?> context) {
        sessions = context.getStateStore(ProjectionTopology.REFINEMENTS);
        open = context.getStateStore(ProjectionTopology.REFINEMENT_OPEN);
        edits = context.getStateStore(ProjectionTopology.REFINEMENT_EDITS);
    }

    void apply(MemoryEvent event, List<Evolver.Change> changes) {
        String sessionId = RefinementState.sessionOf(event);
        if (sessionId == null) {
            return;
        }
        String space = event.getSpace();
        String openId = open.get(space);
        RefinementSession current = openId == null ? null : sessions.get(StoreKeys.of(space, openId));
        RefinementSession next = RefinementState.evolve(current, event);
        if (next != null && next != current) {
            sessions.put(StoreKeys.of(space, next.getSessionId()), next);
            if (next.getCompletedSeq() != null) {
                open.delete(space);
            } else {
                open.put(space, next.getSessionId());
            }
        }
        if (!changes.isEmpty()) {
            // the sequencer accepts a session id only while that session is open; the duplicate cleanup that precedes
            // a session's start names the session too
            edits.put(
                    StoreKeys.of(space, sessionId, event.getSeq()),
                    new RefinementEdit(
                            event.getSeq(),
                            EventDescriptions.type(event),
                            event.getRequestId(),
                            event.getActor(),
                            event.getOccurredAt(),
                            EventDescriptions.describe(event),
                            changes.stream()
                                    .map(c -> new MemoryChange(c.before(), c.after()))
                                    .toList()));
        }
    }
}
