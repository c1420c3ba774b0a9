package io.memorychain.api.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class KafkaHealthIndicatorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void reachableWhileTheClusterAnsweredRecently() {
        KafkaHealthIndicator.Reachability r =
                new KafkaHealthIndicator.Reachability("k1:9092", T0, T0.plusSeconds(10), "TimeoutException: slow");

        assertThat(r.reachable(T0.plusSeconds(10).plus(KafkaHealthIndicator.DOWN_AFTER)))
                .isTrue();
        assertThat(r.details(T0.plusSeconds(12)))
                .containsEntry("reachable", true)
                .doesNotContainKey("reason");
    }

    @Test
    void downWithTheReasonOnceTheClusterHasNotAnsweredForLong() {
        KafkaHealthIndicator.Reachability r = new KafkaHealthIndicator.Reachability(
                "k1:9092", T0, T0.plusSeconds(10), "TimeoutException: Timed out waiting for a node assignment");
        Instant now = T0.plusSeconds(10).plus(KafkaHealthIndicator.DOWN_AFTER).plusSeconds(1);

        assertThat(r.reachable(now)).isFalse();
        assertThat(r.details(now))
                .containsEntry("cluster", "k1:9092")
                .containsEntry("reachable", false)
                .containsEntry("last_answer_at", "2026-01-01T00:00:10Z")
                .containsEntry("error", "TimeoutException: Timed out waiting for a node assignment");
        assertThat((String) r.details(now).get("reason")).contains("no answer from the Kafka cluster for 9 s");
    }

    @Test
    void notYetKnownIsUpUntilTheFirstProbesHadTheirTime() {
        KafkaHealthIndicator.Reachability r =
                new KafkaHealthIndicator.Reachability("k1:9092", T0, null, "TimeoutException: first try");

        assertThat(r.reachable(T0.plusSeconds(1))).isTrue();
        assertThat(r.reachable(T0.plus(KafkaHealthIndicator.DOWN_AFTER).plusSeconds(1)))
                .isFalse();
    }
}
