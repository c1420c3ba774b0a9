package io.memorychain.domain;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionProposed;
import io.memorychain.avro.ReflectionRequested;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import java.util.List;
import java.util.function.Function;

/**
 * {@code evolve(reflection, event)} for the reflection engine (docs/architecture.md §18): the reflection snapshot a
 * chain event produces. Used by the sequencer (to decide a reflection at most once) and by the projection (the
 * reflection log), so both see the same state. Pure: reads only the event and the prior snapshot.
 */
public final class Reflections {

    private Reflections() {}

    /** Whether the payload is one of the reflection events (they change no memory themselves). */
    public static boolean isReflectionEvent(Object payload) {
        return payload instanceof ReflectionRequested
                || payload instanceof ReflectionProposed
                || payload instanceof ReflectionDecided;
    }

    /**
     * @param current looks up the current snapshot of a reflection of the event's space (null when unknown)
     * @return the reflection after the event, or null when the event is not about a reflection
     */
    public static Reflection evolve(MemoryEvent event, Function<String, Reflection> current) {
        Object payload = event.getPayload();
        if (payload instanceof ReflectionProposed p) {
            return Reflection.newBuilder()
                    .setId(p.getReflectionId())
                    .setSpace(event.getSpace())
                    .setStatus(ReflectionStatus.PENDING)
                    .setDocument(p.getReflection())
                    .setProposedSeq(event.getSeq())
                    .setProposedAt(event.getOccurredAt())
                    .setProposedBy(event.getActor())
                    .setDecidedSeq(null)
                    .setDecidedAt(null)
                    .setDecidedBy(null)
                    .setDecision(null)
                    .setReason(null)
                    .setAppliedChangeIds(List.of())
                    .setMemoryIds(List.of())
                    .setEditedChanges(List.of())
                    .build();
        }
        if (payload instanceof ReflectionDecided d) {
            Reflection before = current.apply(d.getReflectionId());
            if (before == null) {
                throw new IllegalStateException("Event " + event.getSpace() + "#" + event.getSeq()
                        + " decides unknown reflection " + d.getReflectionId());
            }
            return Reflection.newBuilder(before)
                    .setStatus(status(d, before.getDocument().getChanges().size()))
                    .setDecidedSeq(event.getSeq())
                    .setDecidedAt(event.getOccurredAt())
                    .setDecidedBy(event.getActor())
                    .setDecision(d.getDecision())
                    .setReason(d.getReason())
                    .setAppliedChangeIds(List.copyOf(d.getAppliedChangeIds()))
                    .setMemoryIds(List.copyOf(d.getMemoryIds()))
                    .setEditedChanges(List.copyOf(d.getEditedChanges()))
                    .build();
        }
        return null;
    }

    /** APPROVED when every proposed change was applied unedited; REJECTED when none was. */
    static ReflectionStatus status(ReflectionDecided d, int proposed) {
        if (d.getDecision() == ReflectionDecisionType.REJECT
                || d.getAppliedChangeIds().isEmpty() && proposed > 0) {
            return ReflectionStatus.REJECTED;
        }
        boolean all = d.getAppliedChangeIds().size() == proposed
                && d.getEditedChanges().isEmpty();
        return all ? ReflectionStatus.APPROVED : ReflectionStatus.PARTIALLY_APPROVED;
    }

    public static boolean isPending(Reflection r) {
        return r.getStatus() == ReflectionStatus.PENDING;
    }
}
