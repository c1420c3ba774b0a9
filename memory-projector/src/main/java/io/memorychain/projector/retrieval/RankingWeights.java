package io.memorychain.projector.retrieval;

/**
 * How the reranker combines the search signals and the other signals (docs/architecture.md §7). Relevance fuses the
 * keyword and meaning scores, {@code keyword * bm25 / max_bm25 + (1 - keyword) * minmax(cosine)}, normalised to the
 * best candidate; it is then multiplied by small factors, so no signal other than relevance can lift an unrelated
 * memory above a relevant one by much:
 * <pre>
 * score = relevance
 *       * decay_factor                                     1 for active memories (docs/architecture.md §7), down to
 *                                                          1 - decay for fading ones, 1 - decay for dormant ones
 *       * (1 + importance * (importance_level - 3) / 2)    importance 1..5 gives 1 -/+ importance
 *       * (1 + recency * e^(-days_since_update / 30))
 *       * (1 + relation * max_related_strength)
 * </pre>
 *
 * @param keyword      weight of the keyword (BM25) signal in relevance; the meaning (cosine) signal has the rest
 * @param signalCap    the largest z-score a signal can give a candidate: a keyword that only one candidate holds
 *                     would otherwise stand sqrt(n - 1) deviations above the rest whatever its weight
 * @param previousTurn share of the base relevance of the memory written just before in the same thread that a
 *                     memory adds to its own (thread context, docs/architecture.md §7)
 * @param nextTurn     share of the base relevance of the memory written just after in the same thread
 * @param decay       weight of the decay factor (0: ignored)
 * @param importance  half-range of the importance factor
 * @param recency     weight of the recency bonus
 * @param relation    weight of the relation bonus (docs/architecture.md §6: {@code + w_rel * max_related_strength})
 * @param hopDecay    share of an entity's relevance that a memory reached through one relation hop gets (times
 *                    {@code 0.9 + 0.1 * strength}): close to 1, so an entity's neighbourhood ranks right after it
 */
public record RankingWeights(double keyword, double signalCap, double previousTurn, double nextTurn, double decay, double importance,
                             double recency, double relation, double hopDecay) {

    public static final RankingWeights DEFAULTS = new RankingWeights(0.6, 3, 0.5, 0.2, 0.3, 0.1, 0.05, 0.05, 0.97);

    public RankingWeights {
        if (keyword < 0 || keyword > 1 || signalCap <= 0 || previousTurn < 0 || nextTurn < 0 || decay < 0 || decay > 1 || importance < 0 || importance >= 1 || recency < 0 || relation < 0
                || hopDecay <= 0 || hopDecay > 1) {
            throw new IllegalArgumentException("ranking weights out of range: decay and hopDecay in (0, 1], importance in [0, 1), others >= 0");
        }
    }
}
