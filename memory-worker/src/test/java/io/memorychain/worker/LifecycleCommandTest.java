package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code lifecycle}'s command line without a cluster. */
class LifecycleCommandTest {

    private static LifecycleCommand.Options parse(String... args) throws UsageException {
        return LifecycleCommand.parse(List.of(args));
    }

    @Test
    void defaultsToTheSeedsDecayCheckedEveryTenMinutesWithoutTtl() throws Exception {
        LifecycleCommand.Options o = parse("--bootstrap-servers", "k:9092");
        assertThat(o.settings()).isEqualTo(LifecycleSettings.defaults());
        assertThat(o.settings().lambda()).isEqualTo(0.03);
        assertThat(o.settings().checkInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(o.applicationId()).isEqualTo("memory-chain-lifecycle");
        assertThat(o.stateDir()).isEqualTo(Path.of("data", "lifecycle"));
        assertThat(o.topics().access()).isEqualTo("memory.access.v1");
    }

    @Test
    void parsesThresholdsAndPerCategoryTtls() throws Exception {
        LifecycleCommand.Options o = parse(
                "--bootstrap-servers",
                "k",
                "--check-interval",
                "PT1M",
                "--decay-lambda",
                "0.05",
                "--fading-below",
                "0.6",
                "--dormant-below",
                "0.3",
                "--archived-below",
                "0.1",
                "--ttl",
                "event=P60D/3,activity=P30D/2/P30D");
        assertThat(o.settings().thresholds()).isEqualTo(new LifecycleSettings.Thresholds(0.6, 0.3, 0.1));
        assertThat(o.settings().lambda()).isEqualTo(0.05);
        assertThat(o.settings().categories().lifecycle("event"))
                .isEqualTo(new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, null));
        assertThat(o.settings().categories().lifecycle("activity"))
                .isEqualTo(new CategoryPolicy.Lifecycle(Duration.ofDays(30), 2, Duration.ofDays(30)));
    }

    @Test
    void rejectsBadValuesWithAUsageMessage() {
        assertThatThrownBy(() -> parse()).hasMessage("--bootstrap-servers is required");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--decay-lambda", "fast"))
                .hasMessageContaining("--decay-lambda must be a number");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--fading-below", "0.1"))
                .hasMessageContaining("fading > dormant > archived");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--ttl", "event"))
                .hasMessageContaining("CATEGORY=TTL");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--check-interval", "often"))
                .hasMessageContaining("--check-interval must be an ISO-8601 duration");
    }
}
