package io.memorychain.projector.retrieval.eval;

import java.util.Collection;

/** Averages over a group of queries: mean recall@5, mean reciprocal rank (MRR@10), and the must-not violations. */
public record Scores(int queries, double recallAt5, double mrr, int violations) {

    public static Scores of(Collection<QueryOutcome> outcomes) {
        if (outcomes.isEmpty()) {
            return new Scores(0, 0, 0, 0);
        }
        return new Scores(
                outcomes.size(),
                outcomes.stream().mapToDouble(QueryOutcome::recallAt5).average().orElseThrow(),
                outcomes.stream()
                        .mapToDouble(QueryOutcome::reciprocalRank)
                        .average()
                        .orElseThrow(),
                outcomes.stream().mapToInt(o -> o.violations().size()).sum());
    }
}
