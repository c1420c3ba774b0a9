package io.memorychain.api.config;

import io.memorychain.embeddings.CosineThresholds;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.jobs.consolidate.ConsolidateSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code memory.consolidate.*}: the daily consolidation job (docs/architecture.md §12) in this process. On by default
 * with the embedded broker, off by default against an external cluster (run {@code memory-worker consolidate} there),
 * like {@code memory.tom.enabled}. Its model is {@code memory.llm.*} ({@link LlmModelConfig}); without one it still
 * runs and merges only near-exact duplicates.
 */
@ConfigurationProperties("memory.consolidate")
public class ConsolidateConfig {

    /** Run the consolidation job in this process; unset: only with the embedded broker. */
    private Boolean enabled;

    /** Chain time between two runs of one space. */
    @NotNull
    private Duration interval = ConsolidateSettings.DEFAULT_INTERVAL;

    /** Pairs checked per run and space (model calls: this divided by the batch size of 8), 1..10000. */
    private int maxPairs = ConsolidateSettings.DEFAULT_MAX_PAIRS;

    /**
     * Lowest cosine of a candidate pair (the same-fact check decides between it and near-exact); unset: calibrated for
     * the embedding model (0.89 for e5-small, 0.85 for bge-small, 0.80 for minilm).
     */
    @Nullable
    private Double bandLow;

    /**
     * Cosine at or above which a pair merges without a model; unset: calibrated for the embedding model (0.995 for
     * e5-small, 0.99 for the others).
     */
    @Nullable
    private Double nearExact;

    /**
     * The job's settings for the embedder's model, or empty when it does not run here.
     *
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public Optional<ConsolidateSettings> settings(boolean embedded, String modelId) {
        if (!InProcessJobs.wanted(enabled, embedded)) {
            return Optional.empty();
        }
        CosineThresholds calibrated = EmbeddingModel.thresholdsOf(modelId);
        return Optional.of(InProcessJobs.named(
                "memory.consolidate: ",
                () -> ConsolidateSettings.forModel(calibrated)
                        .withInterval(interval)
                        .withMaxPairs(maxPairs)
                        .withBand(
                                bandLow != null ? bandLow : calibrated.consolidationBandLow(),
                                nearExact != null ? nearExact : calibrated.nearExact())));
    }

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getInterval() {
        return interval;
    }

    public void setInterval(Duration interval) {
        this.interval = interval;
    }

    public int getMaxPairs() {
        return maxPairs;
    }

    public void setMaxPairs(int maxPairs) {
        this.maxPairs = maxPairs;
    }

    public Double getBandLow() {
        return bandLow;
    }

    public void setBandLow(@Nullable Double bandLow) {
        this.bandLow = bandLow;
    }

    public Double getNearExact() {
        return nearExact;
    }

    public void setNearExact(@Nullable Double nearExact) {
        this.nearExact = nearExact;
    }
}
