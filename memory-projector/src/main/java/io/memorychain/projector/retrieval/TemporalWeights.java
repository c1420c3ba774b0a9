package io.memorychain.projector.retrieval;

/**
 * How dates steer {@code memory.query} (docs/architecture.md §7, dates): a candidate's relevance is multiplied by
 * {@code 1 + dateMatch} when one of its days (creation day or a date its content mentions) falls in a date range the
 * query names ("last week", "in May 2023"), and by {@code 1 + whenMentions} when the query asks when something happened
 * without naming a date ("When did Caroline go to the support group?") and its content mentions a date; then the
 * candidates' relevance is scaled back to at most 1.
 *
 * @param dateMatch boost of a memory whose days meet the query's dates (0: none)
 * @param whenMentions boost of a memory mentioning a date, for "when" questions without a date (0: none)
 */
public record TemporalWeights(double dateMatch, double whenMentions) {

    /** No temporal boost. */
    public static final TemporalWeights NONE = new TemporalWeights(0, 0);

    /**
     * Chosen 2026-11-25 on LoCoMo TUNE only (conv-26 + conv-30, 302 questions, MiniLM, {@code LocomoTemporalGrid}):
     * hit@5 / MRR over all questions 0.623 / 0.411 without, 0.659 / 0.456 with these (temporal category 0.762 / 0.538
     * to 0.841 / 0.697). "When" boosts 0.05..1 rose steadily (0.2: temporal hit@5 0.810, 0.5: 0.825-0.841, 1: the same
     * hits, MRR +0.009); date boosts 0.1..3 too (1: all 0.652, 2: 0.659, 3: 0.662 with a lower MRR).
     */
    public static final TemporalWeights DEFAULTS = new TemporalWeights(2.0, 1.0);

    public TemporalWeights {
        if (!(dateMatch >= 0) || !(whenMentions >= 0)) {
            throw new IllegalArgumentException("temporal weights must be >= 0");
        }
    }
}
