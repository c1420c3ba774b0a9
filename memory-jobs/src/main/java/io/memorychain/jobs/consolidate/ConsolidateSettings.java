package io.memorychain.jobs.consolidate;

import io.memorychain.embeddings.CosineThresholds;
import io.memorychain.embeddings.EmbeddingModel;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the daily consolidation job (docs/architecture.md §12, §16 section 4).
 *
 * @param interval at most one run per space per this much chain time (default P1D)
 * @param maxPairs per-tenant cap: pairs selected per run, near-exact merges and model checks together (50)
 * @param bandLow low end of the cosine band of pairs sent to the model (inclusive)
 * @param nearExact pairs at or above this cosine merge without a model (the band's high end, exclusive)
 * @param poolWindow a memory created or updated within this much chain time before the run is in the pool (72 h)
 * @param poolImportance a memory of at least this importance is in the pool whatever its age (3)
 * @param recency partners older than this (last write) are not considered (90 days)
 * @param fingerprintTtl a planned pair's fingerprint is remembered this long, so it is not planned again (14 days)
 * @param batchSize pairs per model prompt, 5..10 (8)
 * @param maxTokens completion token cap of one batch prompt
 */
public record ConsolidateSettings(
        Duration interval,
        int maxPairs,
        double bandLow,
        double nearExact,
        Duration poolWindow,
        int poolImportance,
        Duration recency,
        Duration fingerprintTtl,
        int batchSize,
        int maxTokens) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofDays(1);
    public static final int DEFAULT_MAX_PAIRS = 50;
    public static final Duration DEFAULT_POOL_WINDOW = Duration.ofHours(72);
    public static final int DEFAULT_POOL_IMPORTANCE = 3;
    public static final Duration DEFAULT_RECENCY = Duration.ofDays(90);
    public static final Duration DEFAULT_FINGERPRINT_TTL = Duration.ofDays(14);
    public static final int DEFAULT_BATCH_SIZE = 8;
    public static final int DEFAULT_MAX_TOKENS = 800;
    /** Merged texts longer than this are refused (a memory, not an essay). */
    public static final int MAX_MERGED_CHARS = 1_000;

    public ConsolidateSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(poolWindow, "poolWindow");
        Objects.requireNonNull(recency, "recency");
        Objects.requireNonNull(fingerprintTtl, "fingerprintTtl");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive");
        }
        if (maxPairs < 1 || maxPairs > 10_000) {
            throw new IllegalArgumentException("max-pairs must be in 1..10000, not " + maxPairs);
        }
        if (!(bandLow > 0 && bandLow < nearExact && nearExact <= 1.0)) {
            throw new IllegalArgumentException(
                    "need 0 < band-low < near-exact <= 1, not " + bandLow + ", " + nearExact);
        }
        if (batchSize < 5 || batchSize > 10) {
            throw new IllegalArgumentException("batch-size must be in 5..10, not " + batchSize);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("max-tokens must be >= 1");
        }
    }

    /** The defaults, with the band calibrated for the default embedding model. */
    public static ConsolidateSettings defaults() {
        return forModel(EmbeddingModel.DEFAULT.thresholds());
    }

    /**
     * The defaults with the band calibrated for a model ({@link CosineThresholds#consolidationBandLow()},
     * {@link CosineThresholds#nearExact()}; memory-worker/README.md lists the pairs measured per model): paraphrases of
     * one fact inside the band, facts that are merely related below it; copies that differ in case, punctuation or
     * whitespace are found by the planner's normalized-text equality whatever the cosine, so near-exact sits above the
     * closest distinct facts measured ("Alice E." / "Alice I." with the same sentence).
     */
    public static ConsolidateSettings forModel(CosineThresholds thresholds) {
        return new ConsolidateSettings(
                DEFAULT_INTERVAL,
                DEFAULT_MAX_PAIRS,
                thresholds.consolidationBandLow(),
                thresholds.nearExact(),
                DEFAULT_POOL_WINDOW,
                DEFAULT_POOL_IMPORTANCE,
                DEFAULT_RECENCY,
                DEFAULT_FINGERPRINT_TTL,
                DEFAULT_BATCH_SIZE,
                DEFAULT_MAX_TOKENS);
    }

    public ConsolidateSettings withMaxPairs(int value) {
        return new ConsolidateSettings(
                interval,
                value,
                bandLow,
                nearExact,
                poolWindow,
                poolImportance,
                recency,
                fingerprintTtl,
                batchSize,
                maxTokens);
    }

    public ConsolidateSettings withBand(double low, double high) {
        return new ConsolidateSettings(
                interval,
                maxPairs,
                low,
                high,
                poolWindow,
                poolImportance,
                recency,
                fingerprintTtl,
                batchSize,
                maxTokens);
    }

    public ConsolidateSettings withInterval(Duration value) {
        return new ConsolidateSettings(
                value,
                maxPairs,
                bandLow,
                nearExact,
                poolWindow,
                poolImportance,
                recency,
                fingerprintTtl,
                batchSize,
                maxTokens);
    }
}
