package io.memorychain.projector.retrieval.eval;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The outcome of every query of a set for one retriever, with averages overall, per query type and per space. */
public record EvaluationReport(String retriever, List<QueryOutcome> outcomes) {

    public EvaluationReport {
        outcomes = List.copyOf(outcomes);
    }

    public Scores overall() {
        return Scores.of(outcomes);
    }

    /** Scores per query type, in {@link QueryType} order (types without queries are absent). */
    public Map<QueryType, Scores> byType() {
        Map<QueryType, Scores> byType = new EnumMap<>(QueryType.class);
        outcomes.stream()
                .collect(Collectors.groupingBy(o -> o.query().type()))
                .forEach((type, group) -> byType.put(type, Scores.of(group)));
        return byType;
    }

    public Map<String, Scores> bySpace() {
        Map<String, Scores> bySpace = new TreeMap<>();
        outcomes.stream()
                .collect(Collectors.groupingBy(o -> o.query().space()))
                .forEach((space, group) -> bySpace.put(space, Scores.of(group)));
        return bySpace;
    }

    /** Queries whose first expected key is not in the top 5, in set order. */
    public List<QueryOutcome> misses() {
        return outcomes.stream()
                .filter(o -> o.firstHitRank() == 0 || o.firstHitRank() > RetrievalMetrics.RECALL_K)
                .toList();
    }
}
