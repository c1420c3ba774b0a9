package io.memorychain.projector.retrieval;

import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.search.SearchRequest;
import java.util.List;

/**
 * One {@code memory.query} (docs/architecture.md §7).
 *
 * @param space the space searched
 * @param agent the agent asking; its category allowlist applies (null: no allowlist)
 * @param query what to look for; not blank
 * @param categories restrict to these categories (null or empty: every category the agent may read)
 * @param filters metadata filters, applied inside the search
 * @param topK how many memories at most, 1..{@value #MAX_TOP_K}
 * @param format bullets (one line each) or full memories
 * @param budgetTokens token budget of the whole answer (header, bullets, related bullets); null: unlimited
 * @param threshold drop memories whose cosine similarity to the query is below this (-1..1); null: keep all
 * @param includeSuperseded also return superseded memories
 * @param includeDormant also return dormant memories (decay score 0.05..0.2), which are otherwise only returned when
 *     asked for explicitly; archived ones never are
 * @param threadId thread of the delta header (null: memories outside threads)
 * @param sinceRev last thread revision the caller saw; when set, the answer starts with the delta header
 */
public record QueryRequest(
        String space,
        String agent,
        String query,
        List<String> categories,
        SearchFilters filters,
        int topK,
        Format format,
        Integer budgetTokens,
        Double threshold,
        boolean includeSuperseded,
        boolean includeDormant,
        String threadId,
        Long sinceRev) {

    public static final int MAX_TOP_K = 100;
    public static final int DEFAULT_TOP_K = 5;

    /** How results are rendered. */
    public enum Format {
        BULLETS,
        FULL
    }

    public QueryRequest {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("query must not be blank");
        }
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new IllegalArgumentException("top_k must be between 1 and " + MAX_TOP_K + ", was " + topK);
        }
        if (budgetTokens != null && budgetTokens < 1) {
            throw new IllegalArgumentException("budget_tokens must be positive, was " + budgetTokens);
        }
        if (threshold != null && !(threshold >= -1 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold must be between -1 and 1, was " + threshold);
        }
        if (sinceRev != null && sinceRev < 0) {
            throw new IllegalArgumentException("since_rev must be >= 0, was " + sinceRev);
        }
        categories = categories == null ? List.of() : List.copyOf(categories);
        filters = filters == null ? SearchFilters.NONE : filters;
        format = format == null ? Format.BULLETS : format;
        if (categories.contains(SearchRequest.UNCATEGORIZED)) {
            throw new IllegalArgumentException("invalid category name");
        }
    }

    /** A query with defaults: top 5 bullets, no budget, no threshold, no filters. */
    public static QueryRequest of(String space, String agent, String query) {
        return new QueryRequest(
                space, agent, query, null, null, DEFAULT_TOP_K, Format.BULLETS, null, null, false, false, null, null);
    }

    public QueryRequest withTopK(int k) {
        return new QueryRequest(
                space,
                agent,
                query,
                categories,
                filters,
                k,
                format,
                budgetTokens,
                threshold,
                includeSuperseded,
                includeDormant,
                threadId,
                sinceRev);
    }
}
