package io.memorychain.llm;

import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The default model and the per-agent overrides (docs/architecture.md §9: an agent's refinement runs on its own model).
 *
 * <p>Read from flat keys ({@link #fromProperties}): {@code memory.llm.<key>} for the default and
 * {@code memory.llm.agents.<agentId>.<key>} for an agent, where an agent's keys override the default's and the rest are
 * inherited. Keys: {@code base-url, api-key, model, request-timeout, max-attempts, initial-backoff, max-backoff,
 * structured-output, daily-token-budget}. Durations are {@code 500ms}, {@code 30s}, {@code 2m} or ISO-8601
 * ({@code PT30S}). Unknown keys under {@code memory.llm.} are errors (a typo must not silently leave a job without its
 * model).
 */
public record LlmSettings(LlmConfig defaults, Map<String, LlmConfig> agents) {

    public static final String PREFIX = "memory.llm.";
    private static final String AGENTS = PREFIX + "agents.";
    /** The setting names under {@code memory.llm.} (and {@code memory.llm.agents.<agentId>.}). */
    public static final Set<String> KEYS = Set.of(
            "base-url",
            "api-key",
            "model",
            "request-timeout",
            "max-attempts",
            "initial-backoff",
            "max-backoff",
            "structured-output",
            "daily-token-budget");

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    public LlmSettings {
        Objects.requireNonNull(defaults, "defaults");
        agents = Map.copyOf(agents);
    }

    public static LlmSettings unconfigured() {
        return new LlmSettings(LlmConfig.unconfigured(), Map.of());
    }

    /** Whether any model (the default or an agent's) is configured: a job with none logs {@code skipped: no model}. */
    public boolean anyConfigured() {
        return defaults.configured() || agents.values().stream().anyMatch(LlmConfig::configured);
    }

    /** The config an agent's calls use: its override, else the default. */
    public LlmConfig forAgent(String agentId) {
        return agents.getOrDefault(agentId, defaults);
    }

    /** Parses the {@code memory.llm.*} keys of {@code properties}; other keys are ignored. */
    public static LlmSettings fromProperties(Map<String, String> properties) {
        Map<String, String> base = new HashMap<>();
        Map<String, Map<String, String>> perAgent = new TreeMap<>();
        properties.forEach((name, value) -> {
            if (!name.startsWith(PREFIX)) {
                return;
            }
            if (name.startsWith(AGENTS)) {
                String rest = name.substring(AGENTS.length());
                int dot = rest.lastIndexOf('.');
                if (dot <= 0 || !KEYS.contains(rest.substring(dot + 1))) {
                    throw new IllegalArgumentException("unknown LLM setting '" + name + "' (expected " + AGENTS
                            + "<agentId>.<key> with key one of " + new TreeMap<>(toMap(KEYS)).keySet() + ")");
                }
                perAgent.computeIfAbsent(rest.substring(0, dot), a -> new HashMap<>())
                        .put(rest.substring(dot + 1), value);
                return;
            }
            String key = name.substring(PREFIX.length());
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown LLM setting '" + name + "'");
            }
            base.put(key, value);
        });
        LlmConfig defaults = config(base, "");
        Map<String, LlmConfig> agents = new LinkedHashMap<>();
        perAgent.forEach((agent, overrides) -> {
            Map<String, String> merged = new HashMap<>(base);
            merged.putAll(overrides);
            agents.put(agent, config(merged, AGENTS + agent + "."));
        });
        return new LlmSettings(defaults, agents);
    }

    /**
     * The default model from environment variables {@code MEMORY_LLM_BASE_URL}, {@code MEMORY_LLM_API_KEY},
     * {@code MEMORY_LLM_MODEL}, ... (the keys upper-cased, '-' as '_'); per-agent overrides need properties.
     */
    public static LlmSettings fromEnvironment(Map<String, String> environment) {
        return fromProperties(propertiesFromEnvironment(environment));
    }

    /** The {@code memory.llm.*} properties that environment variables {@code MEMORY_LLM_*} set (blank ones ignored). */
    public static Map<String, String> propertiesFromEnvironment(Map<String, String> environment) {
        Map<String, String> properties = new HashMap<>();
        for (String key : KEYS) {
            String variable = "MEMORY_LLM_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
            String value = environment.get(variable);
            if (value != null && !value.isBlank()) {
                properties.put(PREFIX + key, value);
            }
        }
        return properties;
    }

    private static LlmConfig config(Map<String, String> values, String agentPrefix) {
        String where = agentPrefix.isEmpty() ? PREFIX : agentPrefix;
        try {
            LlmConfig config = LlmConfig.unconfigured();
            String baseUrl = blankToNull(values.get("base-url"));
            String model = blankToNull(values.get("model"));
            config = config.withServer(baseUrl == null ? null : URI.create(baseUrl), model);
            config = config.withApiKey(values.get("api-key"));
            config = config.withRequestTimeout(duration(values, "request-timeout", config.requestTimeout()));
            config = config.withRetries(
                    values.containsKey("max-attempts")
                            ? Integer.parseInt(values.get("max-attempts").trim())
                            : config.maxAttempts(),
                    duration(values, "initial-backoff", config.initialBackoff()),
                    duration(values, "max-backoff", config.maxBackoff()));
            if (values.containsKey("structured-output")) {
                config = config.withStructuredOutput(StructuredOutputMode.parse(values.get("structured-output")));
            }
            if (values.containsKey("daily-token-budget")) {
                config = config.withDailyTokenBudget(
                        Long.parseLong(values.get("daily-token-budget").trim()));
            }
            return config;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid LLM settings under " + where + "*: " + e.getMessage(), e);
        }
    }

    static Duration duration(Map<String, String> values, String key, Duration fallback) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = DURATION.matcher(trimmed);
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    key + " must be a duration like 500ms, 30s, 2m or PT30S, not '" + value + "'", e);
        }
    }

    private static Map<String, String> toMap(Set<String> keys) {
        Map<String, String> map = new HashMap<>();
        keys.forEach(k -> map.put(k, k));
        return map;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
