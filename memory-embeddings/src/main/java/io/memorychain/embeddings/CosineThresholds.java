package io.memorychain.embeddings;

/**
 * The cosine similarities at which the jobs that compare two stored texts act, calibrated per model
 * (docs/architecture.md §7). Each model spreads cosines differently: unrelated facts score about 0 with
 * all-MiniLM-L6-v2, 0.4-0.5 with bge-small-en-v1.5 and 0.72-0.80 with e5-small-v2, so a threshold measured on one model
 * means nothing on another. The pairs behind each value are in memory-worker/README.md and memory-api/README.md (tables
 * with one column per model); {@code LinkMinCalibrationTest}, {@code ConflictBandCalibrationTest} and the consolidation
 * tests keep a sample of them on the right side for every model.
 *
 * @param linkMin lowest cosine at which the linker relates two semantic memories: facts on the same subject, not the
 *     same sentence pattern about another subject
 * @param conflictMin lowest cosine at which two proposals or a proposal and a memory with different words are flagged
 *     as a possible conflict (same subject)
 * @param consolidationBandLow lowest cosine of a pair that consolidation sends to the same-fact check
 * @param nearExact cosine at or above which consolidation merges a pair without a model
 */
public record CosineThresholds(double linkMin, double conflictMin, double consolidationBandLow, double nearExact) {

    public CosineThresholds {
        for (double v : new double[] {linkMin, conflictMin, consolidationBandLow, nearExact}) {
            if (!(v > 0 && v <= 1)) {
                throw new IllegalArgumentException("cosine thresholds must be in (0, 1], was " + v);
            }
        }
        if (consolidationBandLow >= nearExact) {
            throw new IllegalArgumentException("the consolidation band must end above where it starts");
        }
    }
}
