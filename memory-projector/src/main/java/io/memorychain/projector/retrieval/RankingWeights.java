package io.memorychain.projector.retrieval;

/**
 * How {@code memory.query} fuses the search signals and reranks (docs/architecture.md §7). Each candidate's BM25 and
 * cosine are z-scored over the candidates and mixed, {@code base = kw * z(bm25) + (1 - kw) * z(cosine)}, where the
 * keyword weight {@code kw} runs from {@code keyword} (the best keyword candidates hold none of the query's terms) to
 * {@code keywordCovered} (one holds them all); a memory of a thread adds {@code previousTurn * base(previous) +
 * nextTurn * base(next)} of its thread neighbours; the result, min-max scaled to 0..1, is the relevance, multiplied by
 * small factors so that no signal other than relevance can lift an unrelated memory above a relevant one by much:
 *
 * <pre>
 * score = relevance
 *       * decay_factor                                     1 for active memories (docs/architecture.md §7), down to
 *                                                          1 - decay for fading ones, 1 - decay for dormant ones
 *       * (1 + importance * (importance_level - 3) / 2)    importance 1..5 gives 1 -/+ importance
 *       * (1 + recency * e^(-days_since_update / 30))
 *       * (1 + relation * max_related_strength)
 * </pre>
 *
 * @param candidates the fewest candidates the hybrid search returns for fusion (more when the caller asks for more than
 *     a quarter of them)
 * @param keyword weight of the keyword (BM25) signal when the best keyword candidates hold none of the query's terms;
 *     the meaning (cosine) signal has the rest
 * @param keywordCovered the keyword weight when one of the best keyword candidates holds every term of the query; with
 *     a share {@code c} of them it is {@code keyword * (1 - c) + keywordCovered * c}
 * @param previousTurn share of the base relevance of the memory written just before in the same thread that a memory
 *     adds to its own (thread context)
 * @param nextTurn share of the base relevance of the memory written just after in the same thread
 * @param decay weight of the decay factor (0: ignored)
 * @param importance half-range of the importance factor
 * @param recency weight of the recency bonus
 * @param relation weight of the relation bonus (docs/architecture.md §6: {@code + w_rel * max_related_strength})
 */
public record RankingWeights(
        int candidates,
        double keyword,
        double keywordCovered,
        double previousTurn,
        double nextTurn,
        double decay,
        double importance,
        double recency,
        double relation) {

    /**
     * Fusion chosen 2026-11-25 on LoCoMo TUNE (conv-26 + conv-30, 302 questions, MiniLM; docs/testing.md "Retrieval
     * quality on public data"; {@code LocomoFusionGrid}) among the settings that keep the labelled set's overall
     * floors: candidates 40, keyword 0.2 rising to 0.6 with query coverage, thread context 0.5 / 0.2 gave hit@5 0.623
     * and MRR 0.411 (the former fusion, keyword 0.3 on bm25/max and min-max cosine, no thread context: 0.474 / 0.322;
     * naive RRF 0.493 / 0.330). Higher fixed keyword weights or 80+ candidates scored up to 0.669 on TUNE but cost the
     * labelled set's paraphrases 0.2-0.4 recall@5. The rerank weights are unchanged.
     */
    public static final RankingWeights DEFAULTS = new RankingWeights(40, 0.2, 0.6, 0.5, 0.2, 0.3, 0.1, 0.05, 0.05);

    public RankingWeights {
        if (candidates < 1
                || keyword < 0
                || keyword > 1
                || keywordCovered < 0
                || keywordCovered > 1
                || previousTurn < 0
                || nextTurn < 0
                || decay < 0
                || decay > 1
                || importance < 0
                || importance >= 1
                || recency < 0
                || relation < 0) {
            throw new IllegalArgumentException("ranking weights out of range: candidates >= 1, keyword weights and"
                    + " decay in [0, 1], importance in [0, 1), others >= 0");
        }
    }

    /** These rerank weights with another fusion (candidates, keyword weights, thread context). */
    public RankingWeights withFusion(
            int candidates, double keyword, double keywordCovered, double previousTurn, double nextTurn) {
        return new RankingWeights(
                candidates, keyword, keywordCovered, previousTurn, nextTurn, decay, importance, recency, relation);
    }

    /** These weights without thread context (no share of the neighbours' relevance). */
    public RankingWeights withoutThreadContext() {
        return withFusion(candidates, keyword, keywordCovered, 0, 0);
    }
}
