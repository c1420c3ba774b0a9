package io.memorychain.projector.proposal;

/**
 * When two texts are "about the same subject with different content" (docs/architecture.md §10): their embeddings'
 * cosine similarity is in {@code [min, max]} and their normalized texts differ. Above {@code max}, or with equal
 * normalized texts, they are duplicates instead.
 *
 * <p>Defaults measured with all-MiniLM-L6-v2-q on 22 contradicting pairs and same-subject compatible pairs
 * ({@code ConflictBandCalibrationTest}, README): contradictions score 0.59-0.98 ("staging server is at 10.0.0.5" /
 * "... 10.0.0.7" 0.975), near-duplicates that differ by an article or a full stop 0.95, compatible facts on the same
 * subject 0.61-0.78, the same sentence pattern about another subject 0.49-0.57, unrelated facts below 0.25. No upper
 * cosine bound separates duplicates from contradictions (they overlap at 0.92-0.98), so {@code max} defaults to 1 and
 * duplicates are told apart by their normalized text. {@code min} 0.7 catches 18 of the 22 contradictions and flags
 * 2 of the 6 compatible pairs; paraphrases (0.52-0.92) are flagged too: an embedding sees the subject, not the claim,
 * so a flag asks the reviewer to look at both, it does not prove a contradiction.
 */
public record ConflictBand(double min, double max) {

    public static final double DEFAULT_MIN = 0.7;
    public static final double DEFAULT_MAX = 1.0;
    public static final ConflictBand DEFAULT = new ConflictBand(DEFAULT_MIN, DEFAULT_MAX);

    public ConflictBand {
        if (!(min > 0 && min <= max && max <= 1)) {
            throw new IllegalArgumentException("the conflict band needs 0 < min <= max <= 1, was [" + min + ", " + max + "]");
        }
    }
}
