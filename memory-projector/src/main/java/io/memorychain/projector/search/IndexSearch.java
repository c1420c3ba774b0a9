package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Runs one {@link SearchRequest} on one point-in-time searcher: the ranked BM25 and/or kNN lists (each already
 * filtered), their fusion in HYBRID mode, and the metadata of the hits.
 */
final class IndexSearch {

    private static final ScoreDoc[] NONE = new ScoreDoc[0];

    private final RequestQueries queries;
    private final IndexSettings settings;

    IndexSearch(RequestQueries queries, IndexSettings settings) {
        this.queries = queries;
        this.settings = settings;
    }

    /** Runs the request; {@code unitQuery} is the request's vector L2-normalised (null when it has none). */
    List<Hit> run(IndexSearcher searcher, SearchRequest r, float[] unitQuery) throws IOException {
        Query restriction = queries.restriction(r);
        // HNSW explores as many candidates as it is asked for: over-fetching kNN also buys recall in VECTOR mode
        int candidates = settings.candidates(r.topK());
        boolean keywords = r.mode() != SearchMode.VECTOR && r.hasText();
        boolean vectors = r.mode() != SearchMode.BM25 && unitQuery != null;
        ScoreDoc[] bm25 = keywords
                ? bm25(searcher, r.text(), restriction, r.mode() == SearchMode.HYBRID ? candidates : r.topK())
                : NONE;
        ScoreDoc[] knn = vectors ? nearest(searcher, unitQuery, restriction, candidates) : NONE;
        List<ReciprocalRankFusion.Fused> ranked = ReciprocalRankFusion.fuse(bm25, knn, settings.rrfK(), r.topK());
        StoredFields stored = searcher.storedFields();
        List<Hit> hits = new ArrayList<>(ranked.size());
        for (ReciprocalRankFusion.Fused f : ranked) {
            float score = switch (r.mode()) {
                case BM25 -> f.bm25().score();
                case VECTOR -> f.vector().score();
                case HYBRID -> f.score();
            };
            Document doc = stored.document(f.doc(), MemoryDocuments.META_FIELDS);
            hits.add(new Hit(doc.get(MemoryDocuments.ID), score, f.bm25(), f.vector(), MemoryDocuments.meta(doc)));
        }
        return hits;
    }

    /** See {@link MemoryIndex#threadNeighbours}. */
    Map<String, ThreadNeighbours> threadNeighbours(IndexSearcher searcher, String space, Collection<Memory> memories)
            throws IOException {
        Map<String, ThreadNeighbours> out = new HashMap<>();
        for (Memory m : memories) {
            if (m.getThreadId() == null || !space.equals(m.getSpace())) {
                continue;
            }
            long at = m.getCreatedAt().toEpochMilli();
            Query thread = new BooleanQuery.Builder()
                    .add(new TermQuery(new Term(MemoryDocuments.SPACE, space)), Occur.FILTER)
                    .add(new TermQuery(new Term(MemoryDocuments.THREAD_ID, m.getThreadId())), Occur.FILTER)
                    .add(new TermQuery(new Term(MemoryDocuments.STATE, MemoryState.ACTIVE.name())), Occur.FILTER)
                    .build();
            out.put(
                    m.getId(),
                    new ThreadNeighbours(
                            nearest(
                                    searcher,
                                    thread,
                                    LongPoint.newRangeQuery(MemoryDocuments.CREATED_AT, Long.MIN_VALUE, at - 1),
                                    true),
                            nearest(
                                    searcher,
                                    thread,
                                    LongPoint.newRangeQuery(MemoryDocuments.CREATED_AT, at + 1, Long.MAX_VALUE),
                                    false)));
        }
        return out;
    }

    /** See {@link MemoryIndex#namedEntities}. */
    List<String> namedEntities(IndexSearcher searcher, String space, Collection<String> keys, int max)
            throws IOException {
        if (keys.isEmpty()) {
            return List.of();
        }
        Query query = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(MemoryDocuments.SPACE, space)), Occur.FILTER)
                .add(new TermQuery(new Term(MemoryDocuments.KIND, MemoryKind.ENTITY.name())), Occur.FILTER)
                .add(
                        new TermInSetQuery(
                                MemoryDocuments.ENTITY_NAME,
                                keys.stream().map(BytesRef::new).toList()),
                        Occur.FILTER)
                .build();
        Sort byId = new Sort(new SortField(MemoryDocuments.ID, SortField.Type.STRING));
        StoredFields stored = searcher.storedFields();
        List<String> ids = new ArrayList<>();
        for (ScoreDoc hit : searcher.search(query, max, byId).scoreDocs) {
            ids.add(stored.document(hit.doc, Set.of(MemoryDocuments.ID)).get(MemoryDocuments.ID));
        }
        return ids;
    }

    /** The id of the latest (or earliest) document of the thread within the time range, or null. */
    private static String nearest(IndexSearcher searcher, Query thread, Query range, boolean latest)
            throws IOException {
        Query query = new BooleanQuery.Builder()
                .add(thread, Occur.FILTER)
                .add(range, Occur.FILTER)
                .build();
        Sort order = new Sort(
                new SortField(MemoryDocuments.CREATED_AT, SortField.Type.LONG, latest),
                new SortField(MemoryDocuments.ID, SortField.Type.STRING, latest));
        ScoreDoc[] top = searcher.search(query, 1, order).scoreDocs;
        return top.length == 0
                ? null
                : searcher.storedFields()
                        .document(top[0].doc, Set.of(MemoryDocuments.ID))
                        .get(MemoryDocuments.ID);
    }

    private ScoreDoc[] bm25(IndexSearcher searcher, String text, Query restriction, int n) throws IOException {
        Query keywords = queries.keywords(text);
        return keywords == null ? NONE : TopByScoreThenId.search(searcher, keywords, restriction, n);
    }

    /**
     * kNN hits, by score then id, with their scores turned back from Lucene's {@code (1 + dot) / 2} into the cosine.
     * The graph search happens when the kNN query is rewritten; the rewritten query holds the hits and their scores.
     */
    private static ScoreDoc[] nearest(IndexSearcher searcher, float[] vector, Query restriction, int n)
            throws IOException {
        Query found = searcher.rewrite(RequestQueries.nearest(vector, n, restriction));
        ScoreDoc[] hits = TopByScoreThenId.search(searcher, found, n);
        for (ScoreDoc hit : hits) {
            hit.score = 2 * hit.score - 1;
        }
        return hits;
    }
}
