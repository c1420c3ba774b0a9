package io.memorychain.projector.proposal;

import io.memorychain.embeddings.EmbeddingModel;

/**
 * When two texts are "about the same subject with different content" (docs/architecture.md §10): their embeddings'
 * cosine similarity is in {@code [min, max]} and their normalized texts differ. Above {@code max}, or with equal
 * normalized texts, they are duplicates instead.
 *
 * <p>{@code min} is calibrated per model ({@link io.memorychain.embeddings.CosineThresholds#conflictMin()}; the pairs
 * are in memory-api's README and {@code ConflictBandCalibrationTest}): with every model contradictions about one
 * subject and compatible facts about it overlap, so the band flags most contradictions and some compatible pairs;
 * paraphrases are flagged too: an embedding sees the subject, not the claim, so a flag asks the reviewer to look at
 * both, it does not prove a contradiction. No upper cosine bound separates duplicates from contradictions (they overlap
 * at 0.92-0.99), so {@code max} defaults to 1 and duplicates are told apart by their normalized text.
 */
public record ConflictBand(double min, double max) {

    public static final double DEFAULT_MAX = 1.0;

    public ConflictBand {
        if (!(min > 0 && min <= max && max <= 1)) {
            throw new IllegalArgumentException(
                    "the conflict band needs 0 < min <= max <= 1, was [" + min + ", " + max + "]");
        }
    }

    /** The band calibrated for the model that reports {@code modelId}, up to {@link #DEFAULT_MAX}. */
    public static ConflictBand forModel(String modelId) {
        return new ConflictBand(EmbeddingModel.thresholdsOf(modelId).conflictMin(), DEFAULT_MAX);
    }
}
