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
}
