package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.consolidate.ConsolidateSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsolidateCommandTest {

    @Test
    void defaults() throws Exception {
        ConsolidateCommand.Options options =
                ConsolidateCommand.parse(List.of("--bootstrap-servers", "h:9092", "--model-id", "m@1"), Map.of());

        assertThat(options.settings()).isEqualTo(ConsolidateSettings.defaults());
        assertThat(options.groupId()).isEqualTo("memory-chain-consolidate");
        assertThat(options.startFrom()).isEqualTo(ChainJob.StartFrom.LATEST);
        assertThat(options.modelId()).isEqualTo("m@1");
        assertThat(options.llm().anyConfigured()).isFalse();
        assertThat(options.worker().transactionalId()).isEqualTo("memory-chain-consolidate-0");
    }

    @Test
    void options() throws Exception {
        ConsolidateCommand.Options options = ConsolidateCommand.parse(
                List.of(
                        "--bootstrap-servers",
                        "h:9092",
                        "--model-id",
                        "m@1",
                        "--interval",
                        "PT1H",
                        "--max-pairs",
                        "10",
                        "--band-low",
                        "0.7",
                        "--near-exact",
                        "0.99",
                        "--start-from",
                        "earliest",
                        "--llm-base-url",
                        "http://127.0.0.1:1/v1",
                        "--llm-model",
                        "judge"),
                Map.of());

        assertThat(options.settings().interval()).isEqualTo(Duration.ofHours(1));
        assertThat(options.settings().maxPairs()).isEqualTo(10);
        assertThat(options.settings().bandLow()).isEqualTo(0.7);
        assertThat(options.settings().nearExact()).isEqualTo(0.99);
        assertThat(options.startFrom()).isEqualTo(ChainJob.StartFrom.EARLIEST);
        assertThat(options.llm().defaults().model()).isEqualTo("judge");
    }

    @Test
    void refusesABandThatIsNotOrdered() {
        assertThatThrownBy(() -> ConsolidateCommand.parse(
                        List.of(
                                "--bootstrap-servers",
                                "h:9092",
                                "--model-id",
                                "m",
                                "--band-low",
                                "0.99",
                                "--near-exact",
                                "0.9"),
                        Map.of()))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("band-low");
        assertThatThrownBy(() -> ConsolidateCommand.parse(
                        List.of("--bootstrap-servers", "h:9092", "--model-id", "m", "--interval", "daily"), Map.of()))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--interval");
    }
}
