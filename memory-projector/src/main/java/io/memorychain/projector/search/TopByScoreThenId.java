package io.memorychain.projector.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

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

    /**
     * The best {@code n} documents the restriction admits, scored by the keywords alone, by score then id;
     * {@code ScoreDoc.doc} is the searcher's document number.
     *
     * <p>Where the restriction admits at least half of a segment (one space holding most of the index, say), the
     * keywords are searched on their own with the restriction as the documents they may accept, so the skipping of
     * non-competitive documents is led by the keywords. As a conjunction, the restriction would lead and every document
     * it admits would be visited. Where it is selective, the conjunction is searched: it leads with the restriction.
     * The scores, and so the answer, are the same either way.
     */
    static ScoreDoc[] search(IndexSearcher searcher, Query keywords, Query restriction, int n) throws IOException {
        Weight byKeywords = searcher.createWeight(searcher.rewrite(keywords), ScoreMode.TOP_SCORES, 1f);
        Weight byConjunction = null; // made for the first selective segment: its terms are looked up again
        Weight admits = searcher.createWeight(searcher.rewrite(restriction), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<Ranked> all = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            ScorerSupplier admitted = admits.scorerSupplier(leaf);
            if (admitted == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            int maxDoc = leaf.reader().maxDoc();
            if (admitted.cost() * 2 >= maxDoc) {
                FixedBitSet accepted = new FixedBitSet(maxDoc);
                accepted.or(admitted.get(Long.MAX_VALUE).iterator());
                Bits acceptDocs = live == null ? accepted : new Both(accepted, live);
                collect(leaf, byKeywords.bulkScorer(leaf), acceptDocs, n, all);
            } else {
                if (byConjunction == null) {
                    Query filtered = new BooleanQuery.Builder()
                            .add(keywords, Occur.MUST)
                            .add(restriction, Occur.FILTER)
                            .build();
                    byConjunction = searcher.createWeight(searcher.rewrite(filtered), ScoreMode.TOP_SCORES, 1f);
                }
                collect(leaf, byConjunction.bulkScorer(leaf), live, n, all);
            }
        }
        return best(all, n);
    }

    /** The best {@code n} hits of {@code query}, by score then id; {@code ScoreDoc.doc} is the searcher's number. */
    static ScoreDoc[] search(IndexSearcher searcher, Query query, int n) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.TOP_SCORES, 1f);
        List<Ranked> all = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            collect(leaf, weight.bulkScorer(leaf), leaf.reader().getLiveDocs(), n, all);
        }
        return best(all, n);
    }

    /** Adds the segment's best {@code n} among {@code acceptDocs} to {@code all}. */
    private static void collect(LeafReaderContext leaf, BulkScorer scorer, Bits acceptDocs, int n, List<Ranked> all)
            throws IOException {
        if (scorer == null) {
            return;
        }
        TopScoreDocCollector collector = new TopScoreDocCollectorManager(n, null, n).newCollector();
        LeafCollector leafCollector = collector.getLeafCollector(leaf);
        scorer.score(leafCollector, acceptDocs, 0, DocIdSetIterator.NO_MORE_DOCS);
        leafCollector.finish();
        for (ScoreDoc hit : collector.topDocs().scoreDocs) {
            all.add(new Ranked(hit, leaf));
        }
    }

    /**
     * The segments' lists merged by score then id. Within a segment, document order is id order, so an id is read only
     * where scores tie across segments.
     */
    private static ScoreDoc[] best(List<Ranked> all, int n) {
        Comparator<Ranked> byScoreThenId = (a, b) -> {
            int byScore = Float.compare(b.hit.score, a.hit.score);
            if (byScore != 0) {
                return byScore;
            }
            return a.leaf == b.leaf ? Integer.compare(a.hit.doc, b.hit.doc) : a.id().compareTo(b.id());
        };
        return all.stream().sorted(byScoreThenId).limit(n).map(r -> r.hit).toArray(ScoreDoc[]::new);
    }

    /** The documents both sets hold. */
    private record Both(Bits first, Bits second) implements Bits {
        @Override
        public boolean get(int index) {
            return first.get(index) && second.get(index);
        }

        @Override
        public int length() {
            return first.length();
        }
    }

    /** A segment's hit; its id is read when first compared. */
    private static final class Ranked {
        private final ScoreDoc hit;
        private final LeafReaderContext leaf;
        private BytesRef id;

        Ranked(ScoreDoc hit, LeafReaderContext leaf) {
            this.hit = hit;
            this.leaf = leaf;
        }

        BytesRef id() {
            if (id == null) {
                try {
                    SortedDocValues ids = DocValues.getSorted(leaf.reader(), MemoryDocuments.ID);
                    if (!ids.advanceExact(hit.doc - leaf.docBase)) {
                        throw new IllegalStateException("a document without an id: " + hit.doc);
                    }
                    id = BytesRef.deepCopyOf(ids.lookupOrd(ids.ordValue()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return id;
        }
    }
}
