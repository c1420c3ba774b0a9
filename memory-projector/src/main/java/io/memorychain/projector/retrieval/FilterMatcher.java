package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.projector.search.FilterExpr;
import io.memorychain.projector.search.FilterExpr.Condition;
import io.memorychain.projector.search.MemoryDates;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.search.SearchRequest;
import java.util.Objects;

/**
 * {@link SearchFilters} evaluated on one memory, with the index's semantics: for memories that enter an answer without
 * going through the index (relation traversal), so that they obey the same filters, including the AND / OR / NOT
 * expression (docs/architecture.md §7).
 */
final class FilterMatcher {

    private FilterMatcher() {}

    static boolean matches(SearchFilters f, Memory m) {
        return eq(f.userId(), m.getUserId())
                && eq(f.agentId(), m.getAgentId())
                && eq(f.runId(), m.getRunId())
                && eq(f.actorId(), m.getActorId())
                && eq(f.role(), m.getRole())
                && eq(f.category(), m.getCategory())
                && (f.pinned() == null || f.pinned() == m.getPinned())
                && (f.importanceMin() == null || m.getImportance() >= f.importanceMin())
                && (f.importanceMax() == null || m.getImportance() <= f.importanceMax())
                && (f.updatedAfter() == null || !m.getUpdatedAt().isBefore(f.updatedAfter()))
                && (f.updatedBefore() == null || m.getUpdatedAt().isBefore(f.updatedBefore()))
                && (f.where() == null || matches(f.where(), m));
    }

    static boolean matches(FilterExpr expr, Memory m) {
        if (expr instanceof FilterExpr.And and) {
            return and.parts().stream().allMatch(p -> matches(p, m));
        }
        if (expr instanceof FilterExpr.Or or) {
            return or.parts().stream().anyMatch(p -> matches(p, m));
        }
        if (expr instanceof FilterExpr.Not not) {
            return !matches(not.part(), m);
        }
        if (expr instanceof FilterExpr.Dates dates) {
            return MemoryDates.overlaps(MemoryDates.all(m), dates.spans());
        }
        Condition c = (Condition) expr;
        return switch (c.field()) {
            case TAGS -> c.values().stream().anyMatch(m.getTags()::contains);
            case IMPORTANCE -> compare(c, Integer.valueOf(m.getImportance()));
            case CREATED_AT -> compare(c, m.getCreatedAt());
            case UPDATED_AT -> compare(c, m.getUpdatedAt());
            case CATEGORY ->
                c.values().contains(m.getCategory() == null ? SearchRequest.UNCATEGORIZED : m.getCategory());
            case KIND -> c.values().contains(m.getKind().name());
            case USER_ID -> in(c, m.getUserId());
            case AGENT_ID -> in(c, m.getAgentId());
            case RUN_ID -> in(c, m.getRunId());
            case ACTOR_ID -> in(c, m.getActorId());
            case ROLE -> in(c, m.getRole());
            case THREAD_ID -> in(c, m.getThreadId());
            case PINNED -> c.values().contains(m.getPinned());
        };
    }

    /** {@code eq} / {@code in} on an optional text: a memory without the value matches none. */
    private static boolean in(Condition c, String value) {
        return value != null && c.values().contains(value);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Comparable<T>> boolean compare(Condition c, T value) {
        if (c.op() == FilterExpr.Op.IN) {
            return c.values().contains(value);
        }
        int cmp = value.compareTo((T) c.value());
        return switch (c.op()) {
            case EQ -> cmp == 0;
            case GT -> cmp > 0;
            case GTE -> cmp >= 0;
            case LT -> cmp < 0;
            case LTE -> cmp <= 0;
            default -> throw new IllegalStateException("no " + c.op() + " on " + c.field());
        };
    }

    private static boolean eq(String filter, String value) {
        return filter == null || Objects.equals(filter, value);
    }
}
