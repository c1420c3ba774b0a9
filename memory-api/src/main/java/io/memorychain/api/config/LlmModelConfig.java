package io.memorychain.api.config;

import io.memorychain.llm.LlmSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code memory.llm.*}: the model of this process's LLM jobs (the in-process ToM job), read with memory-llm's own
 * parser ({@link LlmSettings#fromProperties}) so the keys, duration formats and per-agent overrides
 * ({@code memory.llm.agents.<agentId>.<key>}) are exactly those of {@code memory-worker} (memory-llm/README.md). Values
 * are kept as text here and validated there. Environment variables {@code MEMORY_LLM_BASE_URL},
 * {@code MEMORY_LLM_MODEL}, {@code MEMORY_LLM_API_KEY}, ... bind as usual.
 */
@ConfigurationProperties("memory.llm")
public class LlmModelConfig {

    private String baseUrl;
    private String apiKey;
    private String model;
    private String requestTimeout;
    private String maxAttempts;
    private String initialBackoff;
    private String maxBackoff;
    private String structuredOutput;
    private String dailyTokenBudget;
    /** Per-agent overrides: agent id -> key ({@code base-url}, {@code model}, ...) -> value. */
    private Map<String, Map<String, Object>> agents = Map.of();

    /**
     * The parsed settings.
     *
     * @throws IllegalArgumentException naming the property when a setting is invalid
     */
    public LlmSettings settings() {
        Map<String, String> flat = new LinkedHashMap<>();
        put(flat, "base-url", baseUrl);
        put(flat, "api-key", apiKey);
        put(flat, "model", model);
        put(flat, "request-timeout", requestTimeout);
        put(flat, "max-attempts", maxAttempts);
        put(flat, "initial-backoff", initialBackoff);
        put(flat, "max-backoff", maxBackoff);
        put(flat, "structured-output", structuredOutput);
        put(flat, "daily-token-budget", dailyTokenBudget);
        new TreeMap<>(agents)
                .forEach((agent, keys) -> keys.forEach((key, value) ->
                        put(flat, "agents." + agent + "." + key, value == null ? null : value.toString())));
        return LlmSettings.fromProperties(flat);
    }

    private static void put(Map<String, String> flat, String key, String value) {
        if (value != null && !value.isBlank()) {
            flat.put(LlmSettings.PREFIX + key, value.strip());
        }
    }

    public String getBaseUrl() {
        return baseUrl;
    }

    public void setBaseUrl(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String getApiKey() {
        return apiKey;
    }

    public void setApiKey(String apiKey) {
        this.apiKey = apiKey;
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public String getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(String requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public String getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(String maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public String getInitialBackoff() {
        return initialBackoff;
    }

    public void setInitialBackoff(String initialBackoff) {
        this.initialBackoff = initialBackoff;
    }

    public String getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(String maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public String getStructuredOutput() {
        return structuredOutput;
    }

    public void setStructuredOutput(String structuredOutput) {
        this.structuredOutput = structuredOutput;
    }

    public String getDailyTokenBudget() {
        return dailyTokenBudget;
    }

    public void setDailyTokenBudget(String dailyTokenBudget) {
        this.dailyTokenBudget = dailyTokenBudget;
    }

    public Map<String, Map<String, Object>> getAgents() {
        return agents;
    }

    public void setAgents(Map<String, Map<String, Object>> agents) {
        this.agents = agents == null ? Map.of() : agents;
    }
}
