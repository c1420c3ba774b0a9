package io.memorychain.events;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.view.AccessStats;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one rule that turns {@code memory.access.v1} into per-memory {@link AccessStats} (count of reads, last read),
 * shared by every reader of the topic: the projection's {@code view-access} (decay at query time), the lifecycle worker
 * (decay transitions) and the consolidation job (its frequently-retrieved pool). Each memory a read returned counts one
 * read; the last read is the latest {@code accessed_at} (the record's own time, never the clock), so a replay gives the
 * same stats.
 */
public final class AccessCounts {

    private AccessCounts() {}

    /** The stats after one more read at {@code at}: {@code current} null means the memory was never read. */
    public static AccessStats add(AccessStats current, Instant at) {
        if (current == null) {
            return new AccessStats(1L, at);
        }
        return new AccessStats(
                current.getCount() + 1, at.isAfter(current.getLastAccessed()) ? at : current.getLastAccessed());
    }

    /**
     * Applies one access record: for each memory it names, reads its stats with {@code read} (by memory id, null when
     * none) and writes the new ones with {@code write}.
     */
    public static void apply(
            MemoryAccess access, Function<String, AccessStats> read, BiConsumer<String, AccessStats> write) {
        for (String id : access.getMemoryIds()) {
            write.accept(id, add(read.apply(id), access.getAccessedAt()));
        }
    }
}
