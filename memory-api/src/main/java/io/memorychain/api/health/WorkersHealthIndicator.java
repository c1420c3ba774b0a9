package io.memorychain.api.health;

import io.memorychain.api.backend.ChainStatus;
import io.memorychain.api.refinement.RefinementAgentJob;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code /health} details {@code workers}: the background workers running in this process (the lifecycle worker, the
 * ToM job) with their lag (records of their input topics not yet consumed) and last-run figures; a worker that is
 * wanted but cannot run shows why instead ({@code tom: skipped: no model}). Always UP: a worker that stops shows as
 * such in {@code kafkaStreams}; lag and a stale {@code last_check_at} are for operators to alert on.
 */
@Singleton
class WorkersHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final ChainStatus backend;
    private final RefinementAgentJob refinementAgent;

    public WorkersHealthIndicator(ChainStatus backend, RefinementAgentJob refinementAgent) {
        this.backend = backend;
        this.refinementAgent = refinementAgent;
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        healthStatus = HealthStatus.UP;
        Map<String, Object> workers = new java.util.LinkedHashMap<>(backend.workerFigures());
        workers.put("refinement_agent", refinementAgent.figures());
        return workers;
    }

    @Override
    protected String getName() {
        return "workers";
    }
}
