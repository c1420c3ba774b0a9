package io.memorychain.projector.linker;

/**
 * What the linker links (docs/architecture.md §6): each new semantic memory to at most {@code topK} of its nearest active
 * semantic neighbours whose cosine similarity is at least {@code linkMin}.
 *
 * @param topK    neighbours linked per new memory, 1..100
 * @param linkMin lowest cosine similarity that makes an edge, in (0, 1]
 * @param modelId embedding model whose vectors are compared (vectors of other models are ignored); must be the
 *                embedder's {@code modelId()}
 */
public record LinkerSettings(int topK, double linkMin, String modelId) {

    public static final int DEFAULT_TOP_K = 5;
    /**
     * Measured on all-MiniLM-L6-v2-q (28 pairs, listed in memory-worker's README and guarded by
     * {@code LinkMinCalibrationTest}): paraphrases 0.74-0.92; facts on the same subject and topic 0.61-0.72
     * ("lives in Berlin" / "works in Munich" 0.69, "prefers tea over coffee" / "dislikes coffee" 0.70); the same
     * sentence pattern about another subject 0.49-0.57 ("Alice is allergic to peanuts" / "Bob is allergic to cats"
     * 0.57, "dog named Rex" / "cat named Tom" 0.56); unrelated facts -0.04-0.24. 0.75 would link little more than
     * paraphrases (which dedupe and consolidation handle); 0.6 links same-subject facts and not look-alikes.
     */
    public static final double DEFAULT_LINK_MIN = 0.6;

    public LinkerSettings {
        if (topK < 1 || topK > 100) {
            throw new IllegalArgumentException("topK must be in 1..100, was " + topK);
        }
        if (!(linkMin > 0 && linkMin <= 1)) {
            throw new IllegalArgumentException("linkMin must be in (0, 1], was " + linkMin);
        }
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("modelId is required");
        }
    }

    public static LinkerSettings defaults(String modelId) {
        return new LinkerSettings(DEFAULT_TOP_K, DEFAULT_LINK_MIN, modelId);
    }
}
