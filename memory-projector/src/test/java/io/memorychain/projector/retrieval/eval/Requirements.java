package io.memorychain.projector.retrieval.eval;

import java.util.EnumMap;
import java.util.Map;

/** Minimum size and composition of a retrieval set. */
public record Requirements(int minSpaces, int minMemories, int minQueries, Map<QueryType, Integer> minQueriesPerType) {

    /**
     * The retrieval issue: at least 300 memories across several spaces and 80 queries, with the per-type quotas of the
     * labelling brief.
     */
    public static final Requirements ISSUE = new Requirements(4, 300, 80, quotas(25, 15, 10, 10, 15, 8, 7));

    /** No minimum at all: for checking the consistency of small hand-made sets. */
    public static final Requirements NONE = new Requirements(0, 0, 0, Map.of());

    public Requirements {
        minQueriesPerType = Map.copyOf(minQueriesPerType);
    }

    private static Map<QueryType, Integer> quotas(
            int paraphrase, int exact, int temporal, int multihop, int filtered, int superseded, int category) {
        Map<QueryType, Integer> q = new EnumMap<>(QueryType.class);
        q.put(QueryType.PARAPHRASE, paraphrase);
        q.put(QueryType.EXACT, exact);
        q.put(QueryType.TEMPORAL, temporal);
        q.put(QueryType.MULTIHOP, multihop);
        q.put(QueryType.FILTERED, filtered);
        q.put(QueryType.SUPERSEDED, superseded);
        q.put(QueryType.CATEGORY, category);
        return q;
    }
}
