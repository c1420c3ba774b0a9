package io.memorychain.projector.search;

import static io.memorychain.projector.search.MemoryDocuments.CATEGORY;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * Turns a {@link SearchRequest} into Lucene queries. The restriction (space, states, filters including their AND / OR /
 * NOT expression ({@link FilterQueries}), allowlist) is one pure-filter query used both as the FILTER clause of the
 * BM25 query and as the pre-filter of the kNN query, so the top-k of either list is taken among allowed memories only.
 */
final class RequestQueries {

    private final QueryBuilder text;

    RequestQueries(Analyzer analyzer) {
        this.text = new QueryBuilder(analyzer);
    }

    /** All restrictions of the request as FILTER clauses (they never affect scores). */
    Query restriction(SearchRequest r) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.add(new TermQuery(new Term(MemoryDocuments.SPACE, r.space())), Occur.FILTER);
        b.add(
                anyOf(MemoryDocuments.STATE, r.states().stream().map(Enum::name).collect(Collectors.toList())),
                Occur.FILTER);
        if (r.excludeDormant()) {
            b.add(new TermQuery(new Term(MemoryDocuments.DORMANT, "true")), Occur.MUST_NOT);
        }
        SearchFilters f = r.filters();
        exact(b, MemoryDocuments.USER_ID, f.userId());
        exact(b, MemoryDocuments.AGENT_ID, f.agentId());
        exact(b, MemoryDocuments.RUN_ID, f.runId());
        exact(b, MemoryDocuments.ACTOR_ID, f.actorId());
        exact(b, MemoryDocuments.ROLE, f.role());
        exact(b, CATEGORY, f.category());
        if (r.allowedCategories() != null) {
            b.add(
                    r.allowedCategories().isEmpty()
                            ? new MatchNoDocsQuery("empty category allowlist")
                            : anyOf(CATEGORY, r.allowedCategories()),
                    Occur.FILTER);
        }
        if (f.pinned() != null) {
            exact(b, MemoryDocuments.PINNED, f.pinned().toString());
        }
        if (f.importanceMin() != null || f.importanceMax() != null) {
            b.add(
                    IntPoint.newRangeQuery(
                            MemoryDocuments.IMPORTANCE,
                            f.importanceMin() == null ? Integer.MIN_VALUE : f.importanceMin(),
                            f.importanceMax() == null ? Integer.MAX_VALUE : f.importanceMax()),
                    Occur.FILTER);
        }
        if (f.updatedAfter() != null || f.updatedBefore() != null) {
            b.add(
                    LongPoint.newRangeQuery(
                            MemoryDocuments.UPDATED_AT,
                            f.updatedAfter() == null ? Long.MIN_VALUE : ceilMillis(f.updatedAfter()),
                            f.updatedBefore() == null ? Long.MAX_VALUE : ceilMillis(f.updatedBefore()) - 1),
                    Occur.FILTER);
        }
        if (f.where() != null) {
            b.add(FilterQueries.of(f.where()), Occur.FILTER);
        }
        return b.build();
    }

    /**
     * BM25 query over the prose field (English analysis) and the identifier field, every term optional; null when the
     * text has no searchable term (e.g. only stop words).
     */
    Query keywords(String queryText) {
        Query prose = text.createBooleanQuery(MemoryDocuments.TEXT, queryText, Occur.SHOULD);
        Query codes = text.createBooleanQuery(MemoryDocuments.CODES, queryText, Occur.SHOULD);
        if (prose == null || codes == null) {
            return prose == null ? codes : prose;
        }
        return new BooleanQuery.Builder()
                .add(prose, Occur.SHOULD)
                .add(codes, Occur.SHOULD)
                .build();
    }

    /** Approximate kNN (HNSW) among the documents the filter admits. */
    static Query nearest(float[] vector, int k, Query restriction) {
        return new KnnFloatVectorQuery(MemoryDocuments.VECTOR, vector, k, restriction);
    }

    private static void exact(BooleanQuery.Builder b, String field, String value) {
        if (value != null) {
            b.add(new TermQuery(new Term(field, value)), Occur.FILTER);
        }
    }

    private static Query anyOf(String field, Collection<String> values) {
        if (values.size() == 1) {
            return new TermQuery(new Term(field, values.iterator().next()));
        }
        List<BytesRef> terms = values.stream().map(BytesRef::new).collect(Collectors.toList());
        return new TermInSetQuery(field, terms);
    }

    /** Epoch millis rounded up, so a sub-millisecond bound never admits the millisecond before it. */
    private static long ceilMillis(Instant t) {
        return t.toEpochMilli() + (t.getNano() % 1_000_000 == 0 ? 0 : 1);
    }
}
