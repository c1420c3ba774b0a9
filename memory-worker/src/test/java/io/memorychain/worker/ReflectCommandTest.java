package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.reflect.ReflectSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReflectCommandTest {

    @Test
    void defaults() throws Exception {
        ReflectCommand.Options options = ReflectCommand.parse(List.of("--bootstrap-servers", "h:9092"), Map.of());

        assertThat(options.settings()).isEqualTo(ReflectSettings.defaults());
        assertThat(options.settings().outputTokenCap()).isEqualTo(8000);
        assertThat(options.groupId()).isEqualTo("memory-chain-reflect");
        assertThat(options.startFrom()).isEqualTo(ChainJob.StartFrom.LATEST);
        assertThat(options.llm().anyConfigured()).isFalse();
        assertThat(options.worker().transactionalId()).isEqualTo("memory-chain-reflect-0");
    }

    @Test
    void options() throws Exception {
        ReflectCommand.Options options = ReflectCommand.parse(
                List.of(
                        "--bootstrap-servers",
                        "h:9092",
                        "--interval",
                        "PT12H",
                        "--threshold",
                        "5",
                        "--session-idle",
                        "PT10M",
                        "--output-token-cap",
                        "2000",
                        "--start-from",
                        "earliest",
                        "--llm-base-url",
                        "http://127.0.0.1:1/v1",
                        "--llm-model",
                        "thinker"),
                Map.of());

        assertThat(options.settings().interval()).isEqualTo(Duration.ofHours(12));
        assertThat(options.settings().threshold()).isEqualTo(5);
        assertThat(options.settings().sessionIdle()).isEqualTo(Duration.ofMinutes(10));
        assertThat(options.settings().outputTokenCap()).isEqualTo(2000);
        assertThat(options.startFrom()).isEqualTo(ChainJob.StartFrom.EARLIEST);
        assertThat(options.llm().defaults().model()).isEqualTo("thinker");
    }

    @Test
    void refusesBadValues() {
        assertThatThrownBy(() ->
                        ReflectCommand.parse(List.of("--bootstrap-servers", "h:9092", "--interval", "daily"), Map.of()))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--interval");
        assertThatThrownBy(() ->
                        ReflectCommand.parse(List.of("--bootstrap-servers", "h:9092", "--threshold", "0"), Map.of()))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("threshold");
    }
}
