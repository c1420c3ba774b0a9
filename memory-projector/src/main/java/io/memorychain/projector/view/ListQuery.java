package io.memorychain.projector.view;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;

/**
 * Filters for listing memories. Null filters match everything; {@code state} null means ACTIVE only.
 *
 * @param after  cursor: return ids greater than this (null for the first page)
 * @param limit  page size, 1..500
 */
public record ListQuery(MemoryKind kind, String category, MemoryState state, String after, int limit) {

    public static final int MAX_LIMIT = 500;

    public ListQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }
}
