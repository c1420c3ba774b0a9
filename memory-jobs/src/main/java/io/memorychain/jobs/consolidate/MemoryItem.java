package io.memorychain.jobs.consolidate;

import java.time.Instant;
import java.util.Objects;

/**
 * What the consolidation planner knows of one memory: its state on the chain (times are chain time, the events'
 * {@code occurred_at}) and the vector of its current content (null while the embedding of the current content hash has
 * not arrived; such a memory is skipped).
 *
 * @param semantic true for kind semantic (the only kind consolidated; blocks are never semantic)
 */
public record MemoryItem(
        String id,
        long version,
        boolean semantic,
        String content,
        int importance,
        boolean active,
        boolean constitutional,
        boolean pinned,
        Instant createdAt,
        Instant updatedAt,
        float[] vector) {

    public MemoryItem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** May be merged once embedded: active, semantic, neither constitutional nor pinned. */
    public boolean candidate() {
        return active && semantic && !constitutional && !pinned;
    }

    /** May be merged: a candidate with its vector. */
    public boolean mergeable() {
        return candidate() && vector != null;
    }

    public MemoryItem withVector(float[] value) {
        return new MemoryItem(
                id,
                version,
                semantic,
                content,
                importance,
                active,
                constitutional,
                pinned,
                createdAt,
                updatedAt,
                value);
    }
}
