package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.jobs.tom.TomSettings;
import io.memorychain.llm.LlmSettings;
import io.micronaut.context.ApplicationContext;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code memory.tom.*} and {@code memory.llm.*} as the in-process ToM job reads them. */
class TomConfigTest {

    @Test
    void theTomJobIsWantedByDefaultOnlyWithTheEmbeddedBrokerWithTheWorkersDefaults() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            TomConfig config = ctx.getBean(TomConfig.class);
            assertThat(config.getEnabled()).isNull();
            assertThat(config.settings(true)).contains(TomSettings.defaults());
            assertThat(config.getMaxRunsPerBatch()).isEqualTo(4);
            assertThat(config.settings(false))
                    .as("external cluster: run memory-worker tom")
                    .isEmpty();
            LlmSettings llm = ctx.getBean(LlmModelConfig.class).settings();
            assertThat(llm.anyConfigured())
                    .as("no model by default: the job is skipped")
                    .isFalse();
        }
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.tom.enabled",
                        true,
                        "memory.tom.min-items",
                        5,
                        "memory.tom.cooldown",
                        "PT1H",
                        "memory.tom.max-runs-per-batch",
                        2),
                TopologyBackend.ENV)) {
            TomConfig config = ctx.getBean(TomConfig.class);
            assertThat(config.settings(false))
                    .contains(new TomSettings(5, Duration.ofHours(1), TomSettings.DEFAULT_MAX_TOKENS));
            assertThat(config.getMaxRunsPerBatch()).isEqualTo(2);
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.tom.enabled", false), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(TomConfig.class).settings(true)).isEmpty();
        }
    }

    @Test
    void invalidTomSettingsNameTheirProperty() {
        try (ApplicationContext ctx = ApplicationContext.run(Map.of("memory.tom.min-items", 0), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(TomConfig.class).settings(true))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.tom.min-items");
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.tom.max-runs-per-batch", 0), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(TomConfig.class).settings(true))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.tom.max-runs-per-batch");
        }
    }

    @Test
    void theModelIsReadWithMemoryLlmsOwnParserIncludingPerAgentOverrides() {
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.llm.base-url",
                        "http://127.0.0.1:11434/v1",
                        "memory.llm.model",
                        "small",
                        "memory.llm.api-key",
                        "secret",
                        "memory.llm.request-timeout",
                        "5s",
                        "memory.llm.agents.a1.model",
                        "large"),
                TopologyBackend.ENV)) {
            LlmSettings llm = ctx.getBean(LlmModelConfig.class).settings();
            assertThat(llm.anyConfigured()).isTrue();
            assertThat(llm.defaults().baseUrl()).isEqualTo(URI.create("http://127.0.0.1:11434/v1"));
            assertThat(llm.defaults().model()).isEqualTo("small");
            assertThat(llm.defaults().apiKey()).isEqualTo("secret");
            assertThat(llm.defaults().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(llm.forAgent("a1").model()).isEqualTo("large");
            assertThat(llm.forAgent("a1").baseUrl())
                    .as("inherited")
                    .isEqualTo(llm.defaults().baseUrl());
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.llm.model", "only-a-model"), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(LlmModelConfig.class).settings())
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
