package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.projector.search.SearchFilters;
import java.util.Objects;

/**
 * {@link SearchFilters} evaluated on one memory, with the index's semantics: for memories that enter an answer
 * without going through the index (relation traversal), so that they obey the same filters.
 */
final class FilterMatcher {

    private FilterMatcher() {
    }

    static boolean matches(SearchFilters f, Memory m) {
        return eq(f.userId(), m.getUserId()) && eq(f.agentId(), m.getAgentId()) && eq(f.runId(), m.getRunId())
                && eq(f.actorId(), m.getActorId()) && eq(f.role(), m.getRole()) && eq(f.category(), m.getCategory())
                && (f.pinned() == null || f.pinned() == m.getPinned())
                && (f.importanceMin() == null || m.getImportance() >= f.importanceMin())
                && (f.importanceMax() == null || m.getImportance() <= f.importanceMax())
                && (f.updatedAfter() == null || !m.getUpdatedAt().isBefore(f.updatedAfter()))
                && (f.updatedBefore() == null || m.getUpdatedAt().isBefore(f.updatedBefore()));
    }

    private static boolean eq(String filter, String value) {
        return filter == null || Objects.equals(filter, value);
    }
}
