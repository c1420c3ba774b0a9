package io.memorychain.projector.linker;

import io.memorychain.embeddings.EmbeddingModel;

/**
 * What the linker links (docs/architecture.md §6): each new semantic memory to at most {@code topK} of its nearest
 * active semantic neighbours whose cosine similarity is at least {@code linkMin}, among the {@code maxScan} most recent
 * linkable memories of its space (the comparison is exact, so its cost grows with what it scans: the bound keeps a link
 * at a few milliseconds in a space of any size).
 *
 * @param topK neighbours linked per new memory, 1..100
 * @param linkMin lowest cosine similarity that makes an edge, in (0, 1]
 * @param modelId embedding model whose vectors are compared (vectors of other models are ignored); must be the
 *     embedder's {@code modelId()}
 * @param maxScan the most recent linkable memories of the space a new memory is compared with, at least 1
 */
public record LinkerSettings(int topK, double linkMin, String modelId, int maxScan) {

    public static final int DEFAULT_TOP_K = 5;
    public static final int DEFAULT_MAX_SCAN = 2_000;

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
        if (maxScan < 1) {
            throw new IllegalArgumentException("maxScan must be at least 1, was " + maxScan);
        }
    }

    /** With the default {@link #DEFAULT_MAX_SCAN}. */
    public LinkerSettings(int topK, double linkMin, String modelId) {
        this(topK, linkMin, modelId, DEFAULT_MAX_SCAN);
    }

    /**
     * Top 5 at the link_min calibrated for the model that reports {@code modelId}
     * ({@link io.memorychain.embeddings.CosineThresholds#linkMin()}; 28 pairs per model in memory-worker's README,
     * guarded by {@code LinkMinCalibrationTest}).
     */
    public static LinkerSettings defaults(String modelId) {
        return new LinkerSettings(
                DEFAULT_TOP_K, EmbeddingModel.thresholdsOf(modelId).linkMin(), modelId);
    }
}
