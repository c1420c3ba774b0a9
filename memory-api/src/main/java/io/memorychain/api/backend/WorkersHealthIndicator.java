package io.memorychain.api.backend;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code /health} details {@code workers}: the background workers running in this process (the lifecycle worker, the ToM job) with
 * their lag (records of their input topics not yet consumed) and last-run figures; a worker that is wanted but cannot
 * run shows why instead ({@code tom: skipped: no model}). Always UP: a worker that stops
 * shows as such in {@code kafkaStreams}; lag and a stale {@code last_check_at} are for operators to alert on.
 */
@Singleton
public class WorkersHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final MemoryBackend backend;

    public WorkersHealthIndicator(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        healthStatus = HealthStatus.UP;
        return backend.workerFigures();
    }

    @Override
    protected String getName() {
        return "workers";
    }
}
