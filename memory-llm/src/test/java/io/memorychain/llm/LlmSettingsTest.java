package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {

    @Test
    void parsesEveryKeyAndTheDefaults() {
        LlmSettings settings = LlmSettings.fromProperties(Map.of(
                "memory.llm.base-url", "http://127.0.0.1:11434/v1",
                "memory.llm.model", "qwen2.5:7b-instruct",
                "memory.llm.request-timeout", "45s",
                "memory.llm.max-attempts", "5",
                "memory.llm.initial-backoff", "250ms",
                "memory.llm.max-backoff", "PT20S",
                "memory.llm.structured-output", "json_object",
                "memory.llm.daily-token-budget", "200000",
                "other.key", "ignored"));

        LlmConfig config = settings.defaults();
        assertThat(config.configured()).isTrue();
        assertThat(config.chatCompletionsUri()).isEqualTo(URI.create("http://127.0.0.1:11434/v1/chat/completions"));
        assertThat(config.model()).isEqualTo("qwen2.5:7b-instruct");
        assertThat(config.apiKey()).isNull();
        assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(config.maxAttempts()).isEqualTo(5);
        assertThat(config.initialBackoff()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.maxBackoff()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.structuredOutput()).isEqualTo(StructuredOutputMode.JSON_OBJECT);
        assertThat(config.dailyTokenBudget()).isEqualTo(200_000);

        LlmConfig defaults = LlmSettings.fromProperties(Map.of()).defaults();
        assertThat(defaults.configured()).isFalse();
        assertThat(defaults.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.maxAttempts()).isEqualTo(3);
        assertThat(defaults.initialBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.maxBackoff()).isEqualTo(Duration.ofSeconds(8));
        assertThat(defaults.structuredOutput()).isEqualTo(StructuredOutputMode.JSON_SCHEMA);
        assertThat(defaults.dailyTokenBudget()).isZero();
    }

    @Test
    void readsTheDefaultModelFromEnvironmentVariables() {
        LlmSettings settings = LlmSettings.fromEnvironment(Map.of(
                "MEMORY_LLM_BASE_URL",
                "https://api.openai.com/v1",
                "MEMORY_LLM_MODEL",
                "gpt-4o-mini",
                "MEMORY_LLM_API_KEY",
                "sk-x",
                "MEMORY_LLM_DAILY_TOKEN_BUDGET",
                "5"));

        assertThat(settings.defaults().model()).isEqualTo("gpt-4o-mini");
        assertThat(settings.defaults().apiKey()).isEqualTo("sk-x");
        assertThat(settings.defaults().dailyTokenBudget()).isEqualTo(5);
    }

    @Test
    void agentIdsMayContainDots() {
        LlmSettings settings = LlmSettings.fromProperties(Map.of(
                "memory.llm.base-url",
                "http://h/v1",
                "memory.llm.model",
                "m",
                "memory.llm.agents.team.alpha.model",
                "big"));

        assertThat(settings.forAgent("team.alpha").model()).isEqualTo("big");
        assertThat(settings.forAgent("other").model()).isEqualTo("m");
    }

    @Test
    void rejectsABaseUrlWithoutAModel() {
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.base-url", "http://h/v1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.llm.model is required");
    }

    @Test
    void rejectsUnknownKeysAndBadValues() {
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.modle", "x")))
                .hasMessageContaining("unknown LLM setting 'memory.llm.modle'");
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.agents.a.temperature", "1")))
                .hasMessageContaining("unknown LLM setting");
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.request-timeout", "soon")))
                .hasMessageContaining("request-timeout must be a duration");
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.max-attempts", "0")))
                .hasMessageContaining("max-attempts must be in 1..10");
        assertThatThrownBy(() -> LlmSettings.fromProperties(
                        Map.of("memory.llm.base-url", "ftp://h/v1", "memory.llm.model", "m")))
                .hasMessageContaining("http(s) URL");
        assertThatThrownBy(() -> LlmSettings.fromProperties(Map.of("memory.llm.structured-output", "xml")))
                .hasMessageContaining("json_schema or json_object");
        assertThatThrownBy(() -> LlmSettings.fromProperties(
                        Map.of("memory.llm.initial-backoff", "10s", "memory.llm.max-backoff", "1s")))
                .hasMessageContaining("max-backoff must be >= initial-backoff");
    }

    @Test
    void neverPrintsTheApiKey() {
        LlmConfig config = LlmConfig.of("http://h/v1", "m").withApiKey("sk-secret-123");

        assertThat(config.toString()).doesNotContain("sk-secret-123").contains("apiKey=***");
    }

    @Test
    void anyConfiguredWhenTheDefaultOrAnAgentHasAModel() {
        assertThat(LlmSettings.unconfigured().anyConfigured()).isFalse();
        assertThat(LlmSettings.fromProperties(
                                Map.of("memory.llm.base-url", "http://127.0.0.1:1/v1", "memory.llm.model", "m"))
                        .anyConfigured())
                .isTrue();
        assertThat(LlmSettings.fromProperties(Map.of(
                                "memory.llm.agents.a1.base-url",
                                "http://127.0.0.1:1/v1",
                                "memory.llm.agents.a1.model",
                                "m"))
                        .anyConfigured())
                .as("an agent's model only")
                .isTrue();
    }
}
