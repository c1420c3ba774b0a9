package io.memorychain.projector.retrieval.eval;

import static io.memorychain.projector.retrieval.eval.LabelledMemory.require;

import io.memorychain.projector.search.SearchFilters;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The {@code memory.query} filters of a labelled query (docs/architecture.md §7), with the time window in days before
 * the set's reference time so the set does not depend on the clock: {@code updatedAfterDaysAgo = N} admits memories
 * written at most N days ago, {@code updatedBeforeDaysAgo = M} those written more than M days ago (the same
 * inclusive-after, exclusive-before window as {@link SearchFilters}). Null means no constraint.
 */
public record QueryFilters(
        String userId,
        String agentId,
        String runId,
        String actorId,
        String role,
        String category,
        Boolean pinned,
        Integer importanceMin,
        Integer importanceMax,
        Integer updatedAfterDaysAgo,
        Integer updatedBeforeDaysAgo) {

    public static final QueryFilters NONE =
            new QueryFilters(null, null, null, null, null, null, null, null, null, null, null);

    public QueryFilters {
        require(
                importanceMin == null || importanceMax == null || importanceMin <= importanceMax,
                "importance_min > importance_max");
        require(updatedAfterDaysAgo == null || updatedAfterDaysAgo >= 0, "updated_after_days_ago < 0");
        require(updatedBeforeDaysAgo == null || updatedBeforeDaysAgo >= 0, "updated_before_days_ago < 0");
        require(
                updatedAfterDaysAgo == null
                        || updatedBeforeDaysAgo == null
                        || updatedAfterDaysAgo > updatedBeforeDaysAgo,
                "empty time window: updated_after_days_ago " + updatedAfterDaysAgo
                        + " must be greater than updated_before_days_ago " + updatedBeforeDaysAgo);
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    /** True when a memory passes every filter (a memory without a scope field never matches a filter on it). */
    public boolean admits(LabelledMemory m) {
        return matches(userId, m.userId())
                && matches(agentId, m.agentId())
                && matches(runId, m.runId())
                && matches(actorId, m.actorId())
                && matches(role, m.role())
                && matches(category, m.category())
                && (pinned == null || pinned == m.pinned())
                && (importanceMin == null || m.importance() >= importanceMin)
                && (importanceMax == null || m.importance() <= importanceMax)
                && (updatedAfterDaysAgo == null || m.daysAgo() <= updatedAfterDaysAgo)
                && (updatedBeforeDaysAgo == null || m.daysAgo() > updatedBeforeDaysAgo);
    }

    /** The index's filters, the time window anchored at {@code reference}. */
    public SearchFilters toSearchFilters(Instant reference) {
        return SearchFilters.builder()
                .userId(userId)
                .agentId(agentId)
                .runId(runId)
                .actorId(actorId)
                .role(role)
                .category(category)
                .pinned(pinned)
                .importanceMin(importanceMin)
                .importanceMax(importanceMax)
                .updatedAfter(daysBefore(reference, updatedAfterDaysAgo))
                .updatedBefore(daysBefore(reference, updatedBeforeDaysAgo))
                .build();
    }

    private static Instant daysBefore(Instant reference, Integer days) {
        return days == null ? null : reference.minus(Duration.ofDays(days));
    }

    private static boolean matches(String filter, String value) {
        return filter == null || Objects.equals(filter, value);
    }
}
