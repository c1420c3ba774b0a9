package io.memorychain.projector.search;

import java.time.Instant;

/**
 * Metadata filters of {@code memory.query} (docs/architecture.md §7). Every non-null filter must match; null means "no
 * constraint". Scope filters match the memory's field exactly (a memory without that field never matches a non-null
 * filter). Ranges: {@code importanceMin..importanceMax} inclusive; {@code updatedAfter} inclusive and
 * {@code updatedBefore} exclusive, i.e. {@code updatedAfter <= updated_at < updatedBefore}, so adjacent windows never
 * overlap. {@code where} is a boolean expression of conditions with operators (AND / OR / NOT, {@link FilterExpr}),
 * read by {@link FilterParser}; it must hold too.
 */
public record SearchFilters(
        String userId,
        String agentId,
        String runId,
        String actorId,
        String role,
        String category,
        Boolean pinned,
        Integer importanceMin,
        Integer importanceMax,
        Instant updatedAfter,
        Instant updatedBefore,
        FilterExpr where) {

    /** No filter at all. */
    public static final SearchFilters NONE = builder().build();

    public SearchFilters {
        if (importanceMin != null && importanceMax != null && importanceMin > importanceMax) {
            throw new IllegalArgumentException(
                    "importance_min " + importanceMin + " > importance_max " + importanceMax);
        }
        if (updatedAfter != null && updatedBefore != null && !updatedAfter.isBefore(updatedBefore)) {
            throw new IllegalArgumentException(
                    "updated_after " + updatedAfter + " is not before updated_before " + updatedBefore);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Fluent construction; unset filters stay null. */
    public static final class Builder {
        private String userId;
        private String agentId;
        private String runId;
        private String actorId;
        private String role;
        private String category;
        private Boolean pinned;
        private Integer importanceMin;
        private Integer importanceMax;
        private Instant updatedAfter;
        private Instant updatedBefore;
        private FilterExpr where;

        private Builder() {}

        public Builder userId(String v) {
            userId = v;
            return this;
        }

        public Builder agentId(String v) {
            agentId = v;
            return this;
        }

        public Builder runId(String v) {
            runId = v;
            return this;
        }

        public Builder actorId(String v) {
            actorId = v;
            return this;
        }

        public Builder role(String v) {
            role = v;
            return this;
        }

        public Builder category(String v) {
            category = v;
            return this;
        }

        public Builder pinned(Boolean v) {
            pinned = v;
            return this;
        }

        public Builder importanceMin(Integer v) {
            importanceMin = v;
            return this;
        }

        public Builder importanceMax(Integer v) {
            importanceMax = v;
            return this;
        }

        public Builder updatedAfter(Instant v) {
            updatedAfter = v;
            return this;
        }

        public Builder updatedBefore(Instant v) {
            updatedBefore = v;
            return this;
        }

        public Builder where(FilterExpr v) {
            where = v;
            return this;
        }

        public SearchFilters build() {
            return new SearchFilters(
                    userId,
                    agentId,
                    runId,
                    actorId,
                    role,
                    category,
                    pinned,
                    importanceMin,
                    importanceMax,
                    updatedAfter,
                    updatedBefore,
                    where);
        }
    }
}
