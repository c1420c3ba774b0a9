package io.memorychain.projector.view;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import java.util.Set;

/**
 * Filters for listing memories. Null filters match everything; {@code state} null means ACTIVE only.
 *
 * @param after cursor: return ids greater than this (null for the first page)
 * @param limit page size, 1..500
 * @param allowedCategories null: any category; otherwise only memories without a category or with one of these (an
 *     agent's allowlist, applied inside the scan so that pages stay full and cursors work)
 */
public record ListQuery(
        MemoryKind kind, String category, MemoryState state, String after, int limit, Set<String> allowedCategories) {

    public static final int MAX_LIMIT = 500;

    public ListQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
        allowedCategories = allowedCategories == null ? null : Set.copyOf(allowedCategories);
    }

    /** Any category. */
    public ListQuery(MemoryKind kind, String category, MemoryState state, String after, int limit) {
        this(kind, category, state, after, limit, null);
    }

    /** Whether the memory's category passes both the category filter and the allowed categories. */
    public boolean matchesCategory(String memoryCategory) {
        return (category == null || category.equals(memoryCategory))
                && (allowedCategories == null || memoryCategory == null || allowedCategories.contains(memoryCategory));
    }
}
