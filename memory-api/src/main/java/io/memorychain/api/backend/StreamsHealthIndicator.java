package io.memorychain.api.backend;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Set;

/**
 * {@code /health} is DOWN unless every Streams application (sequencer, projection, embedder, linker, refinement
 * trigger) is processing: RUNNING, or REBALANCING for a moment while partitions move. A stopped sequencer means writes time out; a stopped
 * projection means stale reads; a stopped embedder means new memories are found by keywords only.
 */
@Singleton
public class StreamsHealthIndicator extends AbstractHealthIndicator<Map<String, String>> {

    private static final Set<String> HEALTHY = Set.of("RUNNING", "REBALANCING");

    private final MemoryBackend backend;

    public StreamsHealthIndicator(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    protected Map<String, String> getHealthInformation() {
        Map<String, String> states = backend.streamStates();
        healthStatus = statusOf(states);
        return states;
    }

    static HealthStatus statusOf(Map<String, String> states) {
        return HEALTHY.containsAll(states.values()) ? HealthStatus.UP : HealthStatus.DOWN;
    }

    @Override
    protected String getName() {
        return "kafkaStreams";
    }
}
