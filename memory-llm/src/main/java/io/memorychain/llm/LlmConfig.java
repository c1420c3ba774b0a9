package io.memorychain.llm;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one model server and model. A config with neither {@code baseUrl} nor {@code model} is "not configured"
 * ({@link #unconfigured()}); setting only one of them is an error.
 *
 * @param baseUrl the OpenAI-compatible API root, e.g. {@code http://127.0.0.1:11434/v1} (the adapter POSTs to
 *     {@code {baseUrl}/chat/completions}); null when not configured
 * @param apiKey sent as {@code Authorization: Bearer}; null for servers without authentication
 * @param model the model name sent in each request; null when not configured
 * @param requestTimeout per attempt, from sending the request to the complete reply (default 30 s)
 * @param maxAttempts attempts per call, retries included, 1..10 (default 3)
 * @param initialBackoff backoff before the second attempt, doubled per attempt (default 500 ms)
 * @param maxBackoff cap of every wait, Retry-After included (default 8 s)
 * @param structuredOutput how structured output is requested (default {@link StructuredOutputMode#JSON_SCHEMA})
 * @param dailyTokenBudget tokens (prompt + completion) per tenant per UTC day; 0 = unlimited (default)
 */
public record LlmConfig(
        URI baseUrl,
        String apiKey,
        String model,
        Duration requestTimeout,
        int maxAttempts,
        Duration initialBackoff,
        Duration maxBackoff,
        StructuredOutputMode structuredOutput,
        long dailyTokenBudget) {

    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(500);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(8);

    public LlmConfig {
        apiKey = blankToNull(apiKey);
        model = blankToNull(model);
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(structuredOutput, "structuredOutput");
        if ((baseUrl == null) != (model == null)) {
            throw new IllegalArgumentException(
                    baseUrl == null
                            ? "memory.llm.base-url is required when a model is set"
                            : "memory.llm.model is required when base-url is set");
        }
        if (baseUrl != null) {
            String scheme = baseUrl.getScheme();
            if (!("http".equals(scheme) || "https".equals(scheme)) || baseUrl.getHost() == null) {
                throw new IllegalArgumentException(
                        "memory.llm.base-url must be an http(s) URL with a host, not '" + baseUrl + "'");
            }
            if (baseUrl.getQuery() != null || baseUrl.getFragment() != null) {
                throw new IllegalArgumentException("memory.llm.base-url must not have a query or fragment: " + baseUrl);
            }
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("memory.llm.request-timeout must be positive");
        }
        if (maxAttempts < 1 || maxAttempts > 10) {
            throw new IllegalArgumentException("memory.llm.max-attempts must be in 1..10, not " + maxAttempts);
        }
        if (initialBackoff.isNegative() || initialBackoff.isZero()) {
            throw new IllegalArgumentException("memory.llm.initial-backoff must be positive");
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("memory.llm.max-backoff must be >= initial-backoff");
        }
        if (dailyTokenBudget < 0) {
            throw new IllegalArgumentException("memory.llm.daily-token-budget must be >= 0 (0 = unlimited)");
        }
    }

    /** No model server: every call fails NOT_CONFIGURED without a request. */
    public static LlmConfig unconfigured() {
        return new LlmConfig(
                null,
                null,
                null,
                DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_MAX_ATTEMPTS,
                DEFAULT_INITIAL_BACKOFF,
                DEFAULT_MAX_BACKOFF,
                StructuredOutputMode.JSON_SCHEMA,
                0);
    }

    /** A server and model with every other setting at its default. */
    public static LlmConfig of(String baseUrl, String model) {
        return unconfigured().withServer(URI.create(baseUrl), model);
    }

    public boolean configured() {
        return baseUrl != null;
    }

    /** {@code {baseUrl}/chat/completions}, with or without a trailing slash on the base. */
    public URI chatCompletionsUri() {
        if (baseUrl == null) {
            throw new IllegalStateException("no base-url configured");
        }
        String base = baseUrl.toString();
        return URI.create((base.endsWith("/") ? base : base + "/") + "chat/completions");
    }

    public LlmConfig withServer(URI newBaseUrl, String newModel) {
        return new LlmConfig(
                newBaseUrl,
                apiKey,
                newModel,
                requestTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                structuredOutput,
                dailyTokenBudget);
    }

    public LlmConfig withApiKey(String newApiKey) {
        return new LlmConfig(
                baseUrl,
                newApiKey,
                model,
                requestTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                structuredOutput,
                dailyTokenBudget);
    }

    public LlmConfig withModel(String newModel) {
        return new LlmConfig(
                baseUrl,
                apiKey,
                newModel,
                requestTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                structuredOutput,
                dailyTokenBudget);
    }

    public LlmConfig withRequestTimeout(Duration newTimeout) {
        return new LlmConfig(
                baseUrl,
                apiKey,
                model,
                newTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                structuredOutput,
                dailyTokenBudget);
    }

    public LlmConfig withRetries(int newMaxAttempts, Duration newInitialBackoff, Duration newMaxBackoff) {
        return new LlmConfig(
                baseUrl,
                apiKey,
                model,
                requestTimeout,
                newMaxAttempts,
                newInitialBackoff,
                newMaxBackoff,
                structuredOutput,
                dailyTokenBudget);
    }

    public LlmConfig withStructuredOutput(StructuredOutputMode mode) {
        return new LlmConfig(
                baseUrl,
                apiKey,
                model,
                requestTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                mode,
                dailyTokenBudget);
    }

    public LlmConfig withDailyTokenBudget(long budget) {
        return new LlmConfig(
                baseUrl,
                apiKey,
                model,
                requestTimeout,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                structuredOutput,
                budget);
    }

    /** Never prints the api key. */
    @Override
    public String toString() {
        return "LlmConfig[baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "none" : "***") + ", model=" + model
                + ", requestTimeout=" + requestTimeout + ", maxAttempts=" + maxAttempts + ", initialBackoff="
                + initialBackoff + ", maxBackoff=" + maxBackoff + ", structuredOutput=" + structuredOutput
                + ", dailyTokenBudget=" + dailyTokenBudget + "]";
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
