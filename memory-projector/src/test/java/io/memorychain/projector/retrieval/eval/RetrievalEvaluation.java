package io.memorychain.projector.retrieval.eval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** Runs every query of a set through a retriever and scores the results against the labels. */
public final class RetrievalEvaluation {

    private RetrievalEvaluation() {}

    /**
     * Asks the retriever for the top {@value RetrievalMetrics#MRR_DEPTH} of every query, in set order.
     *
     * @throws IllegalStateException if the retriever returns more keys than asked or the same key twice
     */
    public static EvaluationReport run(String name, RetrievalSet set, Retriever retriever) {
        List<QueryOutcome> outcomes = new ArrayList<>(set.queries().size());
        for (LabelledQuery query : set.queries()) {
            List<String> ranked = retriever.retrieve(query, RetrievalMetrics.MRR_DEPTH);
            if (ranked.size() > RetrievalMetrics.MRR_DEPTH || new HashSet<>(ranked).size() != ranked.size()) {
                throw new IllegalStateException(name + " returned " + ranked + " for " + query.id() + ": more than "
                        + RetrievalMetrics.MRR_DEPTH + " keys or duplicates");
            }
            outcomes.add(RetrievalMetrics.score(query, ranked));
        }
        return new EvaluationReport(name, outcomes);
    }
}
