package io.memorychain.api.backend;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code /health} is DOWN unless every Streams application (sequencer, projection, embedder, linker, refinement
 * trigger) is processing: RUNNING, or REBALANCING for a moment while partitions move. A stopped sequencer means writes
 * time out; a stopped projection means stale reads; a stopped embedder means new memories are found by keywords only.
 *
 * <p>It is also DOWN while a stream thread failed recently (docs/architecture.md §19, "Faults"): a failed thread is
 * replaced, so the state reads RUNNING again even when the cause persists (a full disk fails every new thread). The
 * details then carry {@code failures}: per application the machine-readable {@code code} ({@code STORAGE_FULL},
 * {@code STATE_STORE_FAILURE}, {@code STREAM_THREAD_FAILED}), the {@code store} it names, the {@code error}, when
 * ({@code at}) and how many so far ({@code count}).
 */
@Singleton
class StreamsHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private static final Set<String> HEALTHY = Set.of("RUNNING", "REBALANCING");

    private final MemoryBackend backend;

    public StreamsHealthIndicator(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        Map<String, String> states = backend.streamStates();
        Map<String, Map<String, Object>> failures = backend.streamFailures();
        healthStatus = statusOf(states, failures);
        return details(states, failures);
    }

    static HealthStatus statusOf(Map<String, String> states) {
        return statusOf(states, Map.of());
    }

    static HealthStatus statusOf(Map<String, String> states, Map<String, Map<String, Object>> failures) {
        return HEALTHY.containsAll(states.values()) && failures.isEmpty() ? HealthStatus.UP : HealthStatus.DOWN;
    }

    /** The state of each application, plus {@code failures} when there are recent ones. */
    static Map<String, Object> details(Map<String, String> states, Map<String, Map<String, Object>> failures) {
        Map<String, Object> details = new LinkedHashMap<>(states);
        if (!failures.isEmpty()) {
            details.put("failures", failures);
        }
        return details;
    }

    @Override
    protected String getName() {
        return "kafkaStreams";
    }
}
