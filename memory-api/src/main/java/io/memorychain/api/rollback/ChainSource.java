package io.memorychain.api.rollback;

import io.memorychain.avro.MemoryEvent;
import java.util.function.Consumer;

/** Reads one space's chain in seq order (for the rollback planner, docs/architecture.md §17). */
public interface ChainSource {

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
