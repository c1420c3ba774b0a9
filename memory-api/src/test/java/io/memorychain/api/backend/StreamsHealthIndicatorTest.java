package io.memorychain.api.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.health.HealthStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamsHealthIndicatorTest {

    @Test
    void upWhileBothApplicationsRunOrRebalance() {
        assertThat(StreamsHealthIndicator.statusOf(Map.of("sequencer", "RUNNING", "projection", "RUNNING")))
                .isEqualTo(HealthStatus.UP);
        assertThat(StreamsHealthIndicator.statusOf(Map.of("sequencer", "REBALANCING", "projection", "RUNNING")))
                .isEqualTo(HealthStatus.UP);
    }

    @Test
    void downWhenEitherApplicationIsNotProcessing() {
        assertThat(StreamsHealthIndicator.statusOf(Map.of("sequencer", "ERROR", "projection", "RUNNING")))
                .isEqualTo(HealthStatus.DOWN);
        assertThat(StreamsHealthIndicator.statusOf(Map.of("sequencer", "RUNNING", "projection", "PENDING_SHUTDOWN")))
                .isEqualTo(HealthStatus.DOWN);
    }

    @Test
    void downWithTheFailureNamedWhileAStreamThreadFailedRecentlyEvenIfEveryApplicationRuns() {
        Map<String, String> states = Map.of("sequencer", "RUNNING", "projection", "RUNNING");
        Map<String, Map<String, Object>> failures = Map.of(
                "projection",
                Map.of(
                        "code",
                        "STORAGE_FULL",
                        "store",
                        "view-memories",
                        "error",
                        "RocksDBException: Max allowed space was reached",
                        "at",
                        "2026-01-01T00:00:00Z",
                        "count",
                        3L));

        assertThat(StreamsHealthIndicator.statusOf(states, failures)).isEqualTo(HealthStatus.DOWN);
        assertThat(StreamsHealthIndicator.details(states, failures))
                .containsEntry("projection", "RUNNING")
                .containsEntry("failures", failures);
        assertThat(StreamsHealthIndicator.statusOf(states, Map.of())).isEqualTo(HealthStatus.UP);
        assertThat(StreamsHealthIndicator.details(states, Map.of())).doesNotContainKey("failures");
    }
}
