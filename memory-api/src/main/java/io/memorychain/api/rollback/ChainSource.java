package io.memorychain.api.rollback;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.domain.rollback.ChainHistory;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads one space's chain in seq order (for the rollback planner, docs/architecture.md §17), and its history as the
 * views hold it, which plans without reading the chain.
 */
public interface ChainSource {

    /** The space's history in this instance's views; empty when they cannot plan it (the chain is replayed). */
    default Optional<ChainHistory> history(String space) {
        return Optional.empty();
    }

    /**
     * @param progress hears records read of records to read
     * @return events of the space read
     */
    long read(String space, Consumer<MemoryEvent> sink, Progress progress);

    /** Progress of a read. */
    @FunctionalInterface
    interface Progress {
        void update(long read, long total);
    }
}
