package io.memorychain.api.config;

import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code memory.lifecycle.*}: the lifecycle worker (decay transitions, docs/architecture.md §7; TTL expiry per
 * category, docs/architecture.md §12) in this process. On by default with the embedded broker, off by default against
 * an external cluster (run {@code memory-worker lifecycle} there); {@code enabled} decides either way. The decay rate
 * is {@code memory.retrieval.decay-lambda} (the same formula ranks queries); the TTLs come from the categories file.
 */
@ConfigurationProperties("memory.lifecycle")
public class LifecycleConfig {

    /** Run the lifecycle worker in this process; unset: only with the embedded broker. */
    private Boolean enabled;

    /** How often every memory is evaluated. */
    @NotNull
    private Duration checkInterval = LifecycleSettings.DEFAULT_CHECK_INTERVAL;

    /** Decay score below which an active memory becomes fading. */
    private double fadingBelow = LifecycleSettings.Thresholds.SEED.fading();

    /** Decay score below which a fading memory becomes dormant. */
    private double dormantBelow = LifecycleSettings.Thresholds.SEED.dormant();

    /** Decay score below which a dormant memory is archived. */
    private double archivedBelow = LifecycleSettings.Thresholds.SEED.archived();

    /**
     * The worker's settings, or empty when it does not run here.
     *
     * @param embedded whether this process runs the embedded broker
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public Optional<LifecycleSettings> settings(boolean embedded, double lambda, CategoryPolicy categories) {
        if (!InProcessJobs.wanted(enabled, embedded)) {
            return Optional.empty();
        }
        LifecycleSettings.Thresholds thresholds = InProcessJobs.named(
                "memory.lifecycle.fading-below / dormant-below / archived-below: ",
                () -> new LifecycleSettings.Thresholds(fadingBelow, dormantBelow, archivedBelow));
        return Optional.of(InProcessJobs.named(
                "memory.lifecycle: ", () -> new LifecycleSettings(lambda, thresholds, checkInterval, categories)));
    }

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getCheckInterval() {
        return checkInterval;
    }

    public void setCheckInterval(Duration checkInterval) {
        this.checkInterval = checkInterval;
    }

    public double getFadingBelow() {
        return fadingBelow;
    }

    public void setFadingBelow(double fadingBelow) {
        this.fadingBelow = fadingBelow;
    }

    public double getDormantBelow() {
        return dormantBelow;
    }

    public void setDormantBelow(double dormantBelow) {
        this.dormantBelow = dormantBelow;
    }

    public double getArchivedBelow() {
        return archivedBelow;
    }

    public void setArchivedBelow(double archivedBelow) {
        this.archivedBelow = archivedBelow;
    }
}
