package io.memorychain.api.config;

import io.memorychain.jobs.tom.TomSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code memory.tom.*}: the ToM insight job (docs/architecture.md §12) in this process. On by default with the embedded
 * broker, off by default against an external cluster (run {@code memory-worker tom} there), like
 * {@code memory.lifecycle.enabled}. Its model is {@code memory.llm.*} ({@link LlmModelConfig}); with none configured
 * the job does not start and {@code /health} shows {@code workers.tom: skipped: no model}.
 */
@ConfigurationProperties("memory.tom")
public class TomConfig {

    /** Run the ToM job in this process; unset: only with the embedded broker. */
    private Boolean enabled;

    /** New episodic or semantic memories a thread needs before a run, 1..100. */
    private int minItems = TomSettings.DEFAULT_MIN_ITEMS;

    /** Chain time between two runs of one thread. */
    @NotNull
    private Duration cooldown = TomSettings.DEFAULT_COOLDOWN;

    /** Model calls per transaction (bounds the time between two polls), 1..100. */
    private int maxRunsPerBatch = DEFAULT_MAX_RUNS_PER_BATCH;

    public static final int DEFAULT_MAX_RUNS_PER_BATCH = 4;

    /** Whether the job is wanted in this process (before asking whether a model is configured). */
    public boolean wanted(boolean embedded) {
        return InProcessJobs.wanted(enabled, embedded);
    }

    /**
     * The job's settings, or empty when it does not run here.
     *
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public Optional<TomSettings> settings(boolean embedded) {
        if (!wanted(embedded)) {
            return Optional.empty();
        }
        if (maxRunsPerBatch < 1 || maxRunsPerBatch > 100) {
            throw new IllegalArgumentException(
                    "memory.tom.max-runs-per-batch must be in 1..100, not " + maxRunsPerBatch);
        }
        return Optional.of(InProcessJobs.named(
                "memory.tom.", () -> new TomSettings(minItems, cooldown, TomSettings.DEFAULT_MAX_TOKENS)));
    }

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public int getMinItems() {
        return minItems;
    }

    public void setMinItems(int minItems) {
        this.minItems = minItems;
    }

    public Duration getCooldown() {
        return cooldown;
    }

    public void setCooldown(Duration cooldown) {
        this.cooldown = cooldown;
    }

    public int getMaxRunsPerBatch() {
        return maxRunsPerBatch;
    }

    public void setMaxRunsPerBatch(int maxRunsPerBatch) {
        this.maxRunsPerBatch = maxRunsPerBatch;
    }
}
