package io.memorychain.projector.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reciprocal rank fusion (Cormack et al. 2009): {@code score(d) = sum over lists of 1 / (k + rank(d))}, ranks 1-based.
 * It needs no score normalisation between BM25 and cosine. Ties are broken by the better BM25 rank, then the better
 * vector rank, so the order is a function of the two lists only.
 */
final class ReciprocalRankFusion {

    /** A document of either list with its position in each (null when absent) and its fused score. */
    record Fused(int doc, float score, Hit.Signal bm25, Hit.Signal vector) {}

    private static final Comparator<Fused> ORDER = Comparator.comparingDouble((Fused f) -> -f.score())
            .thenComparingInt(
                    f -> f.bm25() == null ? Integer.MAX_VALUE : f.bm25().rank())
            .thenComparingInt(
                    f -> f.vector() == null ? Integer.MAX_VALUE : f.vector().rank());

    private ReciprocalRankFusion() {}

    /**
     * Fuses two ranked lists (best first) into the best {@code limit} documents.
     *
     * @param bm25 BM25 hits with their BM25 scores
     * @param vector kNN hits with their cosine similarities
     */
    static List<Fused> fuse(ScoreDoc[] bm25, ScoreDoc[] vector, int k, int limit) {
        Map<Integer, Hit.Signal> keyword = new HashMap<>();
        Map<Integer, Hit.Signal> semantic = new HashMap<>();
        for (int i = 0; i < bm25.length; i++) {
            keyword.put(bm25[i].doc, new Hit.Signal(i + 1, bm25[i].score));
        }
        for (int i = 0; i < vector.length; i++) {
            semantic.put(vector[i].doc, new Hit.Signal(i + 1, vector[i].score));
        }
        List<Fused> fused = new ArrayList<>(keyword.size() + semantic.size());
        for (ScoreDoc d : bm25) {
            fused.add(fused(d.doc, keyword.get(d.doc), semantic.get(d.doc), k));
        }
        for (ScoreDoc d : vector) {
            if (!keyword.containsKey(d.doc)) {
                fused.add(fused(d.doc, null, semantic.get(d.doc), k));
            }
        }
        fused.sort(ORDER);
        return fused.size() <= limit ? fused : fused.subList(0, limit);
    }

    private static Fused fused(int doc, Hit.Signal bm25, Hit.Signal vector, int k) {
        double score = (bm25 == null ? 0 : 1.0 / (k + bm25.rank())) + (vector == null ? 0 : 1.0 / (k + vector.rank()));
        return new Fused(doc, (float) score, bm25, vector);
    }
}
