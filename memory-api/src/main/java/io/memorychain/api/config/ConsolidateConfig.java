package io.memorychain.api.config;

import io.memorychain.consolidate.ConsolidateSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
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

    /** Lowest cosine of a candidate pair (the same-fact check decides between it and near-exact). */
    private double bandLow = ConsolidateSettings.DEFAULT_BAND_LOW;

    /** Cosine at or above which a pair merges without a model. */
    private double nearExact = ConsolidateSettings.DEFAULT_NEAR_EXACT;

    /**
     * The job's settings, or empty when it does not run here.
     *
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public Optional<ConsolidateSettings> settings(boolean embedded) {
        if (!(enabled != null ? enabled : embedded)) {
            return Optional.empty();
        }
        try {
            return Optional.of(ConsolidateSettings.defaults().withInterval(interval).withMaxPairs(maxPairs)
                    .withBand(bandLow, nearExact));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.consolidate: " + e.getMessage());
        }
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

    public double getBandLow() {
        return bandLow;
    }

    public void setBandLow(double bandLow) {
        this.bandLow = bandLow;
    }

    public double getNearExact() {
        return nearExact;
    }

    public void setNearExact(double nearExact) {
        this.nearExact = nearExact;
    }
}
