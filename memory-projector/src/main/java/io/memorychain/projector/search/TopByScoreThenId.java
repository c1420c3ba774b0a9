package io.memorychain.projector.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

/**
 * The best {@code n} matches of a query by score, ties broken by the memory id: the answer of a search sorted by score
 * then id, whatever order or segments the documents were written in (so a rebuilt index answers as the live one), at
 * the cost of a search by score alone.
 *
 * <p>It needs the index sorted by id ({@link #INDEX_ORDER}): within a segment, document order is then id order, so
 * Lucene's own collector by score (ties to the earlier document) keeps a segment's best {@code n} by score then id, and
 * may skip every document that cannot beat its {@code n}-th (block-max WAND): a query every memory matches with the
 * same score reads {@code n} of them, not all. The segments' lists are merged by score then id, reading the ids of
 * those {@code n} per segment only.
 */
final class TopByScoreThenId {

    /** The order of the documents within each segment that this search relies on. */
    static final Sort INDEX_ORDER = new Sort(new SortField(MemoryDocuments.ID, SortField.Type.STRING));

    private TopByScoreThenId() {}

    /** The best {@code n} hits, by score then id; {@code ScoreDoc.doc} is the searcher's document number. */
    static ScoreDoc[] search(IndexSearcher searcher, Query query, int n) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.TOP_SCORES, 1f);
        List<Ranked> all = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            BulkScorer scorer = weight.bulkScorer(leaf);
            if (scorer == null) {
                continue;
            }
            TopScoreDocCollector collector = new TopScoreDocCollectorManager(n, null, n).newCollector();
            LeafCollector leafCollector = collector.getLeafCollector(leaf);
            scorer.score(leafCollector, leaf.reader().getLiveDocs(), 0, DocIdSetIterator.NO_MORE_DOCS);
            leafCollector.finish();
            SortedDocValues ids = DocValues.getSorted(leaf.reader(), MemoryDocuments.ID);
            for (ScoreDoc hit : collector.topDocs().scoreDocs) {
                int doc = hit.doc - leaf.docBase;
                if (!ids.advanceExact(doc)) {
                    throw new IllegalStateException("a document without an id: " + hit.doc);
                }
                all.add(new Ranked(hit, BytesRef.deepCopyOf(ids.lookupOrd(ids.ordValue()))));
            }
        }
        return all.stream()
                .sorted(Comparator.comparingDouble((Ranked r) -> r.hit.score)
                        .reversed()
                        .thenComparing(r -> r.id))
                .limit(n)
                .map(r -> r.hit)
                .toArray(ScoreDoc[]::new);
    }

    private record Ranked(ScoreDoc hit, BytesRef id) {}
}
