package io.memorychain.domain.category;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Categories and per-agent allowlists (docs/architecture.md §13), enforced server-side on every read and write. An agent
 * with an allowlist may use only those categories; a memory without a category is allowed to everyone; an agent
 * without an allowlist is unrestricted (configure an allowlist for every agent that must be confined).
 *
 * @param categories the known categories by name
 * @param allowlists allowed category names by agent id
 */
public record CategoryPolicy(Map<String, Category> categories, Map<String, Set<String>> allowlists) {

    /** How a category enters an agent's context: always ({@code ALL}) or only when retrieved ({@code RAG}). */
    public enum ContextMode { ALL, RAG }

    /**
     * @param ragLength how many memories of the category retrieval may return at most (RAG mode)
     */
    public record Category(String name, ContextMode context, int ragLength) {
        public Category {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(context, "context");
            if (ragLength < 0) {
                throw new IllegalArgumentException("rag_length must be >= 0 for category " + name);
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
                throw new IllegalArgumentException("allowlist of agent " + list.getKey() + " names unknown categories "
                        + unknown);
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
        return category == null || allowedFor(agent).map(set -> set.contains(category)).orElse(true);
    }

    /** The requested categories the agent may not use, sorted; empty when the request is allowed. */
    public List<String> disallowed(String agent, Collection<String> requested) {
        return requested.stream().filter(c -> !allows(agent, c)).sorted().distinct().toList();
    }

    /** The category's definition, if configured. */
    public Optional<Category> category(String name) {
        return Optional.ofNullable(categories.get(name));
    }
}
