package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.projector.refinement.RefinementTriggerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code refine}'s command line without a cluster. */
class RefineCommandTest {

    private static RefineCommand.Options parse(String... args) throws UsageException {
        return RefineCommand.parse(List.of(args));
    }

    @Test
    void defaultsToEightThousandTokensATargetOfFiveThousandAndAWeeklySchedule() throws Exception {
        RefineCommand.Options o = parse("--bootstrap-servers", "k:9092");
        assertThat(o.settings()).isEqualTo(RefinementTriggerSettings.defaults());
        assertThat(o.settings().thresholdTokens()).isEqualTo(8_000);
        assertThat(o.settings().targetTokens()).isEqualTo(5_000);
        assertThat(o.settings().schedule()).isEqualTo(Duration.ofDays(7));
        assertThat(o.applicationId()).isEqualTo("memory-chain-refinement");
        assertThat(o.stateDir()).isEqualTo(Path.of("data", "refinement"));
        assertThat(o.registry().topic()).isEqualTo("_memory_schemas");
        assertThat(o.topics().events()).isEqualTo("memory.events.v1");
    }

    @Test
    void parsesEveryOption() throws Exception {
        RefineCommand.Options o = parse(
                "--bootstrap-servers=k:9092",
                "--registry-url",
                "http://r:8081",
                "--topic-prefix",
                "t.",
                "--application-id",
                "app",
                "--state-dir",
                "/tmp/s",
                "--threshold-tokens",
                "6000",
                "--target-tokens",
                "3000",
                "--schedule",
                "P1D",
                "--check-interval",
                "PT5M");
        assertThat(o.registry().url()).isEqualTo("http://r:8081");
        assertThat(o.topics().requests()).isEqualTo("t.memory.requests.v1");
        assertThat(o.applicationId()).isEqualTo("app");
        assertThat(o.stateDir()).isEqualTo(Path.of("/tmp/s"));
        assertThat(o.settings())
                .isEqualTo(new RefinementTriggerSettings(
                        6_000,
                        3_000,
                        Duration.ofDays(1),
                        Duration.ofMinutes(5),
                        RefinementTriggerSettings.DEFAULT_PENDING_TIMEOUT));
        assertThat(parse("--bootstrap-servers", "k", "--schedule", "off")
                        .settings()
                        .schedule())
                .isNull();
    }

    @Test
    void rejectsBadValuesWithAUsageMessage() {
        assertThatThrownBy(() -> parse()).hasMessage("--bootstrap-servers is required");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--threshold-tokens", "lots"))
                .hasMessageContaining("--threshold-tokens must be a whole number");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--threshold-tokens", "0"))
                .hasMessageContaining("--threshold-tokens must be positive");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--target-tokens", "0"))
                .hasMessageContaining("--target-tokens must be in");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--schedule", "weekly"))
                .hasMessageContaining("--schedule must be an ISO-8601 duration");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--check-interval", "PT0S"))
                .hasMessageContaining("--check-interval must be at least 10 ms");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--frobnicate"))
                .hasMessageContaining("unknown");
    }
}
