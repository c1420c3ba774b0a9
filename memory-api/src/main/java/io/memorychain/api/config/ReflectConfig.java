package io.memorychain.api.config;

import io.memorychain.jobs.reflect.ReflectSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * {@code memory.reflect.*}: the reflection job (docs/architecture.md §18) in this process. On by default with the
 * embedded broker, off by default against an external cluster (run {@code memory-worker reflect} there), like
 * {@code memory.tom.enabled}. Its model is {@code memory.llm.*} ({@link LlmModelConfig}); with none configured the job
 * does not start and {@code /health} shows {@code workers.reflect: skipped: no model}.
 */
@ConfigurationProperties("memory.reflect")
public class ReflectConfig {

    /** Run the reflection job in this process; unset: only with the embedded broker. */
    private Boolean enabled;

    /** The schedule: chain time between two reflections of a space with unprocessed episodes. */
    @NotNull
    private Duration interval = ReflectSettings.DEFAULT_INTERVAL;

    /** Unprocessed episodes that trigger a reflection. */
    private int threshold = ReflectSettings.DEFAULT_THRESHOLD;

    /** Chain time after a thread's last episode that ends its session (the session-end trigger). */
    @NotNull
    private Duration sessionIdle = ReflectSettings.DEFAULT_SESSION_IDLE;

    /** Completion tokens of all phases of one reflection together. */
    private int outputTokenCap = ReflectSettings.DEFAULT_OUTPUT_TOKEN_CAP;

    /**
     * The job's settings, or empty when it is not wanted here.
     *
     * @param blockLabels the configured block labels (a reflection may rewrite only those)
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public Optional<ReflectSettings> settings(boolean embedded, Set<String> blockLabels) {
        return InProcessJobs.settings(
                enabled,
                embedded,
                "memory.reflect: ",
                () -> new ReflectSettings(
                        interval,
                        threshold,
                        sessionIdle,
                        ReflectSettings.DEFAULT_RETRY_AFTER,
                        outputTokenCap,
                        ReflectSettings.DEFAULT_MAX_EPISODES,
                        ReflectSettings.DEFAULT_MAX_MEMORIES,
                        blockLabels));
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

    public int getThreshold() {
        return threshold;
    }

    public void setThreshold(int threshold) {
        this.threshold = threshold;
    }

    public Duration getSessionIdle() {
        return sessionIdle;
    }

    public void setSessionIdle(Duration sessionIdle) {
        this.sessionIdle = sessionIdle;
    }

    public int getOutputTokenCap() {
        return outputTokenCap;
    }

    public void setOutputTokenCap(int outputTokenCap) {
        this.outputTokenCap = outputTokenCap;
    }
}
