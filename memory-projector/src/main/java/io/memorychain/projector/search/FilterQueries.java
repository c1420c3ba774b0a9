package io.memorychain.projector.search;

import io.memorychain.projector.search.FilterExpr.Condition;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.IntRange;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * {@link FilterExpr} as a Lucene filter (docs/architecture.md §7), used inside the restriction of
 * {@link RequestQueries}, so the BM25 and kNN top-k are taken among matching memories only. Same semantics as
 * {@code retrieval.FilterMatcher}: a memory without a value for a field matches no condition on it.
 */
final class FilterQueries {

    private FilterQueries() {}

    static Query of(FilterExpr expr) {
        if (expr instanceof FilterExpr.And and) {
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            and.parts().forEach(p -> b.add(of(p), Occur.FILTER));
            return b.build();
        }
        if (expr instanceof FilterExpr.Or or) {
            BooleanQuery.Builder b = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
            or.parts().forEach(p -> b.add(of(p), Occur.SHOULD));
            return b.build();
        }
        if (expr instanceof FilterExpr.Not not) {
            // a pure negation matches nothing in Lucene: subtract from everything
            return new BooleanQuery.Builder()
                    .add(MatchAllDocsQuery.INSTANCE, Occur.FILTER)
                    .add(of(not.part()), Occur.MUST_NOT)
                    .build();
        }
        if (expr instanceof FilterExpr.Dates dates) {
            BooleanQuery.Builder b = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
            dates.spans()
                    .forEach(s -> b.add(
                            IntRange.newIntersectsQuery(
                                    MemoryDocuments.DATES,
                                    new int[] {(int) s.first().toEpochDay()},
                                    new int[] {(int) s.last().toEpochDay()}),
                            Occur.SHOULD));
            return b.build();
        }
        return condition((Condition) expr);
    }

    private static Query condition(Condition c) {
        return switch (c.field().type()) {
            case TEXT, TEXT_LIST, BOOLEAN ->
                terms(
                        field(c.field()),
                        c.values().stream()
                                .map(v -> c.field() == FilterExpr.Field.CATEGORY
                                        ? MemoryDocuments.category((String) v)
                                        : String.valueOf(v))
                                .toList());
            case INTEGER -> integer(c);
            case TIME -> time(c);
        };
    }

    /** {@code eq} and {@code contains} take one term, {@code in} any of several. */
    private static Query terms(String field, List<String> values) {
        if (values.size() == 1) {
            return new TermQuery(new Term(field, values.get(0)));
        }
        return new TermInSetQuery(field, values.stream().map(BytesRef::new).collect(Collectors.toList()));
    }

    private static Query integer(Condition c) {
        String field = MemoryDocuments.IMPORTANCE;
        if (c.op() == FilterExpr.Op.IN) {
            return IntPoint.newSetQuery(
                    field, c.values().stream().mapToInt(v -> (Integer) v).toArray());
        }
        int v = (Integer) c.value();
        return switch (c.op()) {
            case EQ -> IntPoint.newExactQuery(field, v);
            case GT -> v == Integer.MAX_VALUE ? none(field) : IntPoint.newRangeQuery(field, v + 1, Integer.MAX_VALUE);
            case GTE -> IntPoint.newRangeQuery(field, v, Integer.MAX_VALUE);
            case LT -> v == Integer.MIN_VALUE ? none(field) : IntPoint.newRangeQuery(field, Integer.MIN_VALUE, v - 1);
            case LTE -> IntPoint.newRangeQuery(field, Integer.MIN_VALUE, v);
            default -> throw new IllegalStateException("no " + c.op() + " on " + c.field());
        };
    }

    /** Stored times are whole milliseconds: a bound with a sub-millisecond part is rounded the exact way. */
    private static Query time(Condition c) {
        String field =
                c.field() == FilterExpr.Field.CREATED_AT ? MemoryDocuments.CREATED_AT : MemoryDocuments.UPDATED_AT;
        Instant t = (Instant) c.value();
        long floor = t.toEpochMilli();
        long ceil = floor + (t.getNano() % 1_000_000 == 0 ? 0 : 1);
        return switch (c.op()) {
            case EQ -> LongPoint.newRangeQuery(field, ceil, floor); // empty when t is not a whole millisecond
            case GT -> LongPoint.newRangeQuery(field, floor + 1, Long.MAX_VALUE);
            case GTE -> LongPoint.newRangeQuery(field, ceil, Long.MAX_VALUE);
            case LT -> LongPoint.newRangeQuery(field, Long.MIN_VALUE, ceil - 1);
            case LTE -> LongPoint.newRangeQuery(field, Long.MIN_VALUE, floor);
            default -> throw new IllegalStateException("no " + c.op() + " on " + c.field());
        };
    }

    private static Query none(String field) {
        return IntPoint.newRangeQuery(field, 1, 0);
    }

    private static String field(FilterExpr.Field f) {
        return switch (f) {
            case CATEGORY -> MemoryDocuments.CATEGORY;
            case TAGS -> MemoryDocuments.TAG;
            case KIND -> MemoryDocuments.KIND;
            case USER_ID -> MemoryDocuments.USER_ID;
            case AGENT_ID -> MemoryDocuments.AGENT_ID;
            case RUN_ID -> MemoryDocuments.RUN_ID;
            case ACTOR_ID -> MemoryDocuments.ACTOR_ID;
            case ROLE -> MemoryDocuments.ROLE;
            case THREAD_ID -> MemoryDocuments.THREAD_ID;
            case PINNED -> MemoryDocuments.PINNED;
            default -> throw new IllegalStateException(f + " is not a term field");
        };
    }
}
