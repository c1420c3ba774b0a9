package io.memorychain.projector.lifecycle;

import io.memorychain.avro.DecayStatus;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.projector.retrieval.DecayModel;
import java.time.Duration;
import java.util.Objects;

/**
 * How the lifecycle worker decides (docs/architecture.md §7, §12).
 *
 * @param lambda decay rate per day (0.03: half-life about 23 days); 0 turns decay transitions off
 * @param thresholds the score thresholds of the decay statuses
 * @param checkInterval how often (wall-clock punctuation) every memory is evaluated
 * @param categories the category policy: per-category ttl, importance threshold and purge_after
 */
public record LifecycleSettings(
        double lambda, Thresholds thresholds, Duration checkInterval, CategoryPolicy categories) {

    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMinutes(10);

    public LifecycleSettings {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be a finite number >= 0, was " + lambda);
        }
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(categories, "categories (CategoryPolicy.unrestricted() for none)");
        if (checkInterval == null || checkInterval.toMillis() < 10) {
            throw new IllegalArgumentException("checkInterval must be at least 10 ms, was " + checkInterval);
        }
    }

    /** The seed's lambda and thresholds, checked every 10 minutes, no TTL. */
    public static LifecycleSettings defaults() {
        return new LifecycleSettings(
                DecayModel.DEFAULT_LAMBDA, Thresholds.SEED, DEFAULT_CHECK_INTERVAL, CategoryPolicy.unrestricted());
    }

    public LifecycleSettings withCategories(CategoryPolicy policy) {
        return new LifecycleSettings(lambda, thresholds, checkInterval, policy);
    }

    public LifecycleSettings withCheckInterval(Duration interval) {
        return new LifecycleSettings(lambda, thresholds, interval, categories);
    }

    /**
     * Decay status by score (docs/architecture.md §7): ACTIVE at or above {@code fading}, FADING down to
     * {@code dormant}, DORMANT down to {@code archived}, ARCHIVED below.
     */
    public record Thresholds(double fading, double dormant, double archived) {

        /** The seed's 0.5 / 0.2 / 0.05. */
        public static final Thresholds SEED = new Thresholds(0.5, 0.2, 0.05);

        public Thresholds {
            if (!(fading > dormant && dormant > archived && archived > 0)) {
                throw new IllegalArgumentException("thresholds must satisfy fading > dormant > archived > 0, were "
                        + fading + " / " + dormant + " / " + archived);
            }
        }

        public DecayStatus status(double score) {
            if (score >= fading) {
                return DecayStatus.ACTIVE;
            }
            if (score >= dormant) {
                return DecayStatus.FADING;
            }
            return score >= archived ? DecayStatus.DORMANT : DecayStatus.ARCHIVED;
        }
    }
}
