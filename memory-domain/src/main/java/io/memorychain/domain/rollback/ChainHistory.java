package io.memorychain.domain.rollback;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.domain.Evolver;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * One space's chain as views that already hold it (docs/architecture.md §17): what each event touched, and every
 * version of its memories and edges. Every answer is of the chain up to {@link #head()}.
 */
public interface ChainHistory {

    /** The seq the answers stand at: the last event they include (0 for an empty space). */
    long head();

    /** The event at {@code seq}, in 1..{@link #head()}. */
    Step step(long seq);

    /** The events after {@code afterSeq} up to the head, in seq order. */
    void steps(long afterSeq, Consumer<Step> visit);

    /** The memory as the events up to {@code seq} left it; null when it did not exist yet. */
    Memory memoryAt(String id, long seq);

    /** The edge {@code from -> to} as the events up to {@code seq} left it; null when there was none. */
    Evolver.Edge edgeAt(String fromId, String toId, long seq);

    /**
     * One event, as far as a rollback plan needs it.
     *
     * @param changed the memories whose snapshot it changed (as {@link Evolver#evolve} gives them)
     * @param edge the relation edge it linked or unlinked (its ids only), or null
     */
    record Step(long seq, Instant occurredAt, Actor actor, List<String> changed, Evolver.Edge edge) {}
}
