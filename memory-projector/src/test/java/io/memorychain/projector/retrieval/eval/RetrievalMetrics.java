package io.memorychain.projector.retrieval.eval;

import java.util.List;

/**
 * The metrics of one ranked result against the labels. Recall@k is the fraction of the expected keys found in the first
 * k results; the reciprocal rank is 1/rank of the first expected key within the first {@value #MRR_DEPTH} results (0 if
 * none); a violation is a must-not key anywhere in the result.
 */
public final class RetrievalMetrics {

    /** The k of the reported recall@k. */
    public static final int RECALL_K = 5;
    /** Results looked at for the reciprocal rank (MRR@10), and fetched per query by {@link RetrievalEvaluation}. */
    public static final int MRR_DEPTH = 10;

    private RetrievalMetrics() {}

    public static double recallAt(int k, List<String> ranked, List<String> expected) {
        List<String> top = ranked.subList(0, Math.min(k, ranked.size()));
        long found = expected.stream().distinct().filter(top::contains).count();
        return (double) found / expected.stream().distinct().count();
    }

    public static double reciprocalRank(List<String> ranked, List<String> expected) {
        for (int i = 0; i < Math.min(MRR_DEPTH, ranked.size()); i++) {
            if (expected.contains(ranked.get(i))) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    public static List<String> violations(List<String> ranked, List<String> mustNot) {
        return ranked.stream().filter(mustNot::contains).toList();
    }

    /** Scores one query's result. */
    public static QueryOutcome score(LabelledQuery query, List<String> ranked) {
        return new QueryOutcome(
                query,
                ranked,
                recallAt(RECALL_K, ranked, query.expected()),
                reciprocalRank(ranked, query.expected()),
                violations(ranked, query.mustNot()));
    }
}
