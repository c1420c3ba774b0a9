package io.memorychain.projector.retrieval.eval;

import java.util.List;

/** What a retriever returned for one query and how it scored (see {@link RetrievalMetrics}). */
public record QueryOutcome(
        LabelledQuery query, List<String> retrieved, double recallAt5, double reciprocalRank, List<String> violations) {

    public QueryOutcome {
        retrieved = List.copyOf(retrieved);
        violations = List.copyOf(violations);
    }

    /** Rank (1-based) of the first expected key in the result, 0 if absent. */
    public int firstHitRank() {
        return reciprocalRank == 0 ? 0 : (int) Math.round(1 / reciprocalRank);
    }
}
