package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.projector.search.DateExpressions;
import io.memorychain.projector.search.DateSpan;
import io.memorychain.projector.search.FilterExpr;
import io.memorychain.projector.search.MemoryDates;
import io.memorychain.projector.search.SearchFilters;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The dates of a query (docs/architecture.md §7, dates): the ranges its date expressions name, relative ones ("last
 * week") resolved against {@code reference} (the request's as-of time when it has one, else the time it is asked), and
 * whether it asks when something happened.
 *
 * @param spans the days the query names, in order (empty: none)
 * @param asksWhen the query asks for a time ("When did...", "What year...", "How long ago...")
 */
public record TemporalQuery(List<DateSpan> spans, boolean asksWhen) {

    private static final Pattern WHEN = Pattern.compile(
            "^\\W*(?:when|how\\s+long\\s+ago|(?:what|which|in\\s+which|"
                    + "in\\s+what|on\\s+what|on\\s+which)\\s+(?:date|day|year|month|week|weekend|season|time\\s+of\\s+year))\\b",
            Pattern.CASE_INSENSITIVE);

    public TemporalQuery {
        spans = List.copyOf(spans);
    }

    public static TemporalQuery of(String query, LocalDate reference) {
        return new TemporalQuery(
                DateExpressions.spans(query, reference), WHEN.matcher(query).find());
    }

    /**
     * The request restricted to memories whose days meet the query's date, when it names exactly one date expression
     * (an unambiguous date: "in May 2023", "last week"); else the request unchanged. The restriction joins the
     * request's filters, so it is applied inside the search.
     */
    public QueryRequest restrict(QueryRequest q) {
        if (spans.size() != 1) {
            return q;
        }
        SearchFilters f = q.filters();
        FilterExpr dates = new FilterExpr.Dates(spans);
        FilterExpr where = f.where() == null ? dates : new FilterExpr.And(List.of(f.where(), dates));
        SearchFilters filters = new SearchFilters(
                f.userId(),
                f.agentId(),
                f.runId(),
                f.actorId(),
                f.role(),
                f.category(),
                f.pinned(),
                f.importanceMin(),
                f.importanceMax(),
                f.updatedAfter(),
                f.updatedBefore(),
                where);
        return new QueryRequest(
                q.space(),
                q.agent(),
                q.query(),
                q.categories(),
                filters,
                q.topK(),
                q.format(),
                q.budgetTokens(),
                q.threshold(),
                q.includeSuperseded(),
                q.includeDormant(),
                q.threadId(),
                q.sinceRev());
    }

    /**
     * Multiplies the relevance of each candidate its dates favour ({@link TemporalWeights}), then scales every
     * relevance down so that the highest is at most 1 again. Candidates whose memory cannot be read are left as they
     * are.
     */
    public void boost(
            TemporalWeights weights, Map<String, Double> relevance, Function<String, Optional<Memory>> memories) {
        boolean byDates = !spans.isEmpty() && weights.dateMatch() > 0;
        boolean byMention = spans.isEmpty() && asksWhen && weights.whenMentions() > 0;
        if (!byDates && !byMention) {
            return;
        }
        relevance.replaceAll((id, r) ->
                memories.apply(id).map(m -> r * factor(weights, m, byDates)).orElse(r));
        double max = relevance.values().stream()
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(1);
        if (max > 1) {
            relevance.replaceAll((id, r) -> r / max);
        }
    }

    private double factor(TemporalWeights weights, Memory m, boolean byDates) {
        if (byDates) {
            return MemoryDates.overlaps(MemoryDates.all(m), spans) ? 1 + weights.dateMatch() : 1;
        }
        return MemoryDates.mentioned(m).isEmpty() ? 1 : 1 + weights.whenMentions();
    }
}
