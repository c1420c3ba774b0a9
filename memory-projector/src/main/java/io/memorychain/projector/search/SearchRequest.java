package io.memorychain.projector.search;

import io.memorychain.avro.MemoryState;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One search of {@link MemoryIndex}. Everything that restricts the result (space, states, filters, category allowlist)
 * is applied inside the Lucene search, before the top-k cut.
 *
 * <ul>
 *   <li>{@code space}: required; a search never returns a memory of another space.
 *   <li>{@code text}: query text for BM25 (null or blank: no keyword signal).
 *   <li>{@code vector}: query embedding for kNN, same dimensions as the index (null: no vector signal).
 *   <li>{@code topK}: 1..{@value #MAX_TOP_K}.
 *   <li>{@code filters}: metadata filters; null means {@link SearchFilters#NONE}.
 *   <li>{@code allowedCategories}: the agent's category allowlist. Null means every category (and uncategorized
 *       memories); otherwise a memory matches only if its category is in the set, so an empty set matches nothing.
 *       Memories without a category are denied by any non-null allowlist unless it contains {@link #UNCATEGORIZED}.
 *   <li>{@code states}: lifecycle states to include; null or empty means {@link #DEFAULT_STATES} (ACTIVE only). Public
 *       callers should only ever choose between ACTIVE and ACTIVE+SUPERSEDED ({@link Builder#includeSuperseded});
 *       SOFT_DELETED and ARCHIVED are for internal callers (workers, restore) through {@link Builder#internalStates}.
 *   <li>{@code excludeDormant}: also leave out memories the lifecycle worker recorded as dormant
 *       ({@code DecayTransitioned}; pinned ones never are): memory.query without {@code include_dormant}. Default
 *       false: other searches see them.
 * </ul>
 *
 * <p>The vector array is not copied: do not mutate it while the request is in use.
 */
public record SearchRequest(
        String space,
        String text,
        float[] vector,
        int topK,
        SearchMode mode,
        SearchFilters filters,
        Set<String> allowedCategories,
        Set<MemoryState> states,
        boolean excludeDormant) {

    /**
     * Allowlist entry (and {@link SearchFilters#category()} value) standing for "memory has no category". It holds a
     * NUL character, so no configured category name can collide with it.
     */
    public static final String UNCATEGORIZED = "\0uncategorized";

    public static final int MAX_TOP_K = 1000;
    public static final Set<MemoryState> DEFAULT_STATES = Set.of(MemoryState.ACTIVE);

    /** Dormant memories included. */
    public SearchRequest(
            String space,
            String text,
            float[] vector,
            int topK,
            SearchMode mode,
            SearchFilters filters,
            Set<String> allowedCategories,
            Set<MemoryState> states) {
        this(space, text, vector, topK, mode, filters, allowedCategories, states, false);
    }

    public SearchRequest {
        if (space == null || space.isBlank()) {
            throw new IllegalArgumentException("space is required");
        }
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new IllegalArgumentException("top_k must be between 1 and " + MAX_TOP_K + ", was " + topK);
        }
        if (mode == null) {
            throw new IllegalArgumentException("mode is required");
        }
        boolean hasText = text != null && !text.isBlank();
        if (mode == SearchMode.BM25 && !hasText) {
            throw new IllegalArgumentException("BM25 search needs query text");
        }
        if (mode == SearchMode.VECTOR && vector == null) {
            throw new IllegalArgumentException("VECTOR search needs a query vector");
        }
        if (mode == SearchMode.HYBRID && !hasText && vector == null) {
            throw new IllegalArgumentException("HYBRID search needs query text or a query vector");
        }
        filters = filters == null ? SearchFilters.NONE : filters;
        allowedCategories = allowedCategories == null ? null : Set.copyOf(allowedCategories);
        states = states == null || states.isEmpty() ? DEFAULT_STATES : Set.copyOf(states);
    }

    /** True when the request carries usable query text. */
    public boolean hasText() {
        return text != null && !text.isBlank();
    }

    public static Builder builder(String space) {
        return new Builder(space);
    }

    /** Fluent construction with defaults: top 10, HYBRID, no filters, every category, ACTIVE only. */
    public static final class Builder {
        private final String space;
        private String text;
        private float[] vector;
        private int topK = 10;
        private SearchMode mode = SearchMode.HYBRID;
        private SearchFilters filters = SearchFilters.NONE;
        private Set<String> allowedCategories;
        private Set<MemoryState> states = DEFAULT_STATES;
        private boolean excludeDormant;

        private Builder(String space) {
            this.space = space;
        }

        public Builder text(String v) {
            text = v;
            return this;
        }

        public Builder vector(float[] v) {
            vector = v;
            return this;
        }

        public Builder topK(int v) {
            topK = v;
            return this;
        }

        public Builder mode(SearchMode v) {
            mode = v;
            return this;
        }

        public Builder filters(SearchFilters v) {
            filters = v;
            return this;
        }

        /** The agent's allowlist; null (the default) allows every category. */
        public Builder allowedCategories(Collection<String> v) {
            allowedCategories = v == null ? null : new LinkedHashSet<>(v);
            return this;
        }

        /** ACTIVE only (false, the default) or ACTIVE and SUPERSEDED (true): the public {@code include_superseded}. */
        public Builder includeSuperseded(boolean include) {
            states = include ? EnumSet.of(MemoryState.ACTIVE, MemoryState.SUPERSEDED) : DEFAULT_STATES;
            return this;
        }

        /** Leave out memories recorded as dormant on the chain (memory.query without include_dormant). */
        public Builder excludeDormant(boolean v) {
            excludeDormant = v;
            return this;
        }

        /** Any set of states, SOFT_DELETED and ARCHIVED included: internal callers only (workers, restore). */
        public Builder internalStates(Set<MemoryState> v) {
            states = v;
            return this;
        }

        public SearchRequest build() {
            return new SearchRequest(
                    space, text, vector, topK, mode, filters, allowedCategories, states, excludeDormant);
        }
    }
}
