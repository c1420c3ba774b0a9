package io.memorychain.domain.category;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Categories and per-agent allowlists (docs/architecture.md §13), enforced server-side on every read and write. An
 * agent with an allowlist may use only those categories; a memory without a category is allowed to everyone; an agent
 * without an allowlist is unrestricted (configure an allowlist for every agent that must be confined).
 *
 * @param categories the known categories by name
 * @param allowlists allowed category names by agent id
 */
public record CategoryPolicy(Map<String, Category> categories, Map<String, Set<String>> allowlists) {

    /** How a category enters an agent's context: always ({@code ALL}) or only when retrieved ({@code RAG}). */
    public enum ContextMode {
        ALL,
        RAG
    }

    /**
     * @param ragLength how many memories of the category retrieval may return at most (RAG mode)
     * @param lifecycle the category's TTL lifecycle (docs/architecture.md §12); {@link Lifecycle#NONE} by default
     */
    public record Category(String name, ContextMode context, int ragLength, Lifecycle lifecycle) {
        public Category {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(context, "context");
            Objects.requireNonNull(lifecycle, "lifecycle (Lifecycle.NONE for none)");
            if (ragLength < 0) {
                throw new IllegalArgumentException("rag_length must be >= 0 for category " + name);
            }
        }

        /** Without a TTL lifecycle. */
        public Category(String name, ContextMode context, int ragLength) {
            this(name, context, ragLength, Lifecycle.NONE);
        }
    }

    /**
     * TTL lifecycle of a category (docs/architecture.md §12): a memory of the category that nobody read for
     * {@code ttl}, with importance below {@code importanceBelow}, neither pinned nor constitutional, is soft-deleted by
     * the lifecycle worker ({@code MemoryExpired}); it may be purged {@code purgeAfter} later. docs/architecture.md §9
     * keeps soft-deleted memories indefinitely for rollback, so {@code purgeAfter} is null (never purge) unless
     * configured.
     *
     * @param ttl unread time after which a memory expires; null: memories of the category never expire
     * @param importanceBelow only memories with importance strictly below this expire (1..6; 6 = any importance)
     * @param purgeAfter time from expiry to purge_at; null: kept indefinitely
     */
    public record Lifecycle(Duration ttl, int importanceBelow, Duration purgeAfter) {

        /** The TTL importance threshold (docs/architecture.md §12) when none is configured. */
        public static final int DEFAULT_IMPORTANCE_BELOW = 3;
        /** No TTL, never purged. */
        public static final Lifecycle NONE = new Lifecycle(null, DEFAULT_IMPORTANCE_BELOW, null);

        public Lifecycle {
            if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
                throw new IllegalArgumentException("ttl must be positive, was " + ttl);
            }
            if (purgeAfter != null && purgeAfter.isNegative()) {
                throw new IllegalArgumentException("purge_after must not be negative, was " + purgeAfter);
            }
            if (importanceBelow < 1 || importanceBelow > 6) {
                throw new IllegalArgumentException("ttl_importance_below must be in 1..6, was " + importanceBelow);
            }
        }
    }

    public CategoryPolicy {
        categories = Map.copyOf(categories);
        allowlists = Map.copyOf(allowlists);
        for (Map.Entry<String, Set<String>> list : allowlists.entrySet()) {
            Set<String> unknown = new TreeSet<>(list.getValue());
            unknown.removeAll(categories.keySet());
            if (!categories.isEmpty() && !unknown.isEmpty()) {
                throw new IllegalArgumentException(
                        "allowlist of agent " + list.getKey() + " names unknown categories " + unknown);
            }
        }
    }

    public static CategoryPolicy unrestricted() {
        return new CategoryPolicy(Map.of(), Map.of());
    }

    /** The categories the agent may use, or empty when the agent is unrestricted. */
    public Optional<Set<String>> allowedFor(String agent) {
        return Optional.ofNullable(agent == null ? null : allowlists.get(agent));
    }

    /** Whether the agent may read or write a memory of that category (null category: always). */
    public boolean allows(String agent, String category) {
        return category == null
                || allowedFor(agent).map(set -> set.contains(category)).orElse(true);
    }

    /** The requested categories the agent may not use, sorted; empty when the request is allowed. */
    public List<String> disallowed(String agent, Collection<String> requested) {
        return requested.stream()
                .filter(c -> !allows(agent, c))
                .sorted()
                .distinct()
                .toList();
    }

    /** The TTL lifecycle of memories of that category: {@link Lifecycle#NONE} for none, unknown ones included. */
    public Lifecycle lifecycle(String category) {
        return category == null
                ? Lifecycle.NONE
                : category(category).map(Category::lifecycle).orElse(Lifecycle.NONE);
    }

    /** The category's definition, if configured. */
    public Optional<Category> category(String name) {
        return Optional.ofNullable(categories.get(name));
    }
}
