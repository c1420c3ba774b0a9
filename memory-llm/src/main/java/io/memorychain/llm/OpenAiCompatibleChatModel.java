package io.memorychain.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ChatModel} over the OpenAI chat-completions protocol ({@code POST {baseUrl}/chat/completions}), which OpenAI,
 * vLLM, the llama.cpp server and Ollama ({@code /v1}) all speak.
 *
 * <p>Per call: refuse with BUDGET_EXCEEDED when the tenant's tokens today are already at its budget; otherwise up to
 * {@code maxAttempts} attempts. 429, 5xx, unreachable servers, timeouts and malformed or schema-violating replies are
 * retried after an exponential backoff with jitter ({@code initialBackoff * 2^(n-1)}, capped by {@code maxBackoff},
 * scaled by 0.5..1.0), or after {@code Retry-After} seconds (also capped) when the server sends one; other 4xx fail at
 * once (REJECTED). Every attempt's reported usage is charged to the tenant's budget, and the budget is checked again
 * before each retry. Every call is reported to the {@link UsageListener}.
 */
public final class OpenAiCompatibleChatModel implements ChatModel {

    private static final Logger log = LoggerFactory.getLogger(OpenAiCompatibleChatModel.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmConfig config;
    private final LlmRuntime runtime;
    private final HttpClient http;

    public OpenAiCompatibleChatModel(LlmConfig config, LlmRuntime runtime) {
        this.config = Objects.requireNonNull(config, "config");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        if (!config.configured()) {
            throw new IllegalArgumentException("OpenAiCompatibleChatModel needs a base-url and a model; use "
                    + "ChatModels for a model that may be unconfigured");
        }
        Duration connectTimeout = config.requestTimeout().compareTo(Duration.ofSeconds(10)) < 0
                ? config.requestTimeout()
                : Duration.ofSeconds(10);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .build();
    }

    @Override
    public boolean configured() {
        return true;
    }

    @Override
    public String modelName() {
        return config.model();
    }

    public LlmConfig config() {
        return config;
    }

    /** One attempt's result: the reply, or a failure with the wait the server asked for (Retry-After), if any. */
    private record Attempt(
            ChatResult.Completed reply, ChatOutcome failure, String message, TokenUsage usage, Duration retryAfter) {

        static Attempt failed(ChatOutcome kind, String message, TokenUsage usage, Duration retryAfter) {
            return new Attempt(null, kind, message, usage, retryAfter);
        }
    }

    @Override
    public ChatResult complete(ChatRequest request) {
        long started = System.nanoTime();
        TokenUsage usage = TokenUsage.NONE;
        int attempts = 0;
        Attempt last = null;
        byte[] body = requestBody(request);
        while (true) {
            if (!runtime.budget().allows(request.tenant(), config.dailyTokenBudget())) {
                String message = "tenant " + request.tenant() + " used "
                        + runtime.budget().used(request.tenant()) + " of its " + config.dailyTokenBudget()
                        + " tokens today (UTC)";
                return finish(
                        request,
                        new ChatResult.Failed(ChatOutcome.BUDGET_EXCEEDED, message, usage, attempts, since(started)));
            }
            attempts++;
            last = attempt(request, body);
            usage = usage.plus(last.usage());
            runtime.budget().charge(request.tenant(), last.usage().total());
            if (last.reply() != null) {
                ChatResult.Completed reply = last.reply();
                return finish(
                        request,
                        new ChatResult.Completed(
                                reply.content(), reply.json(), reply.model(), usage, attempts, since(started)));
            }
            if (!last.failure().retryable() || attempts >= config.maxAttempts()) {
                break;
            }
            Duration wait = waitBefore(attempts + 1, last.retryAfter());
            log.debug(
                    "llm attempt {} of {} for purpose={} tenant={} failed {} ({}); retrying in {} ms",
                    attempts,
                    config.maxAttempts(),
                    request.purpose(),
                    request.tenant(),
                    last.failure(),
                    last.message(),
                    wait.toMillis());
            try {
                runtime.sleeper().sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return finish(request, new ChatResult.Failed(last.failure(), last.message(), usage, attempts, since(started)));
    }

    /** The wait before attempt {@code nextAttempt} (2, 3, ...): Retry-After if given, else backoff; both capped. */
    Duration waitBefore(int nextAttempt, Duration retryAfter) {
        Duration max = config.maxBackoff();
        if (retryAfter != null) {
            return retryAfter.compareTo(max) > 0 ? max : retryAfter;
        }
        long base = config.initialBackoff().toMillis();
        int doublings = Math.min(nextAttempt - 2, 30);
        long exponential = Math.min(max.toMillis(), base << doublings);
        double jitter = Math.min(Math.max(runtime.jitter().getAsDouble(), 0.0), 1.0);
        return Duration.ofMillis(Math.round(exponential * (0.5 + 0.5 * jitter)));
    }

    private ChatResult finish(ChatRequest request, ChatResult result) {
        try {
            runtime.usage().onCall(UsageRecord.of(request, config.model(), result));
        } catch (RuntimeException e) {
            log.warn("usage listener failed for purpose={} tenant={}", request.purpose(), request.tenant(), e);
        }
        return result;
    }

    private Attempt attempt(ChatRequest request, byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(config.chatCompletionsUri())
                .timeout(config.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (config.apiKey() != null) {
            builder.header("Authorization", "Bearer " + config.apiKey());
        }
        HttpResponse<String> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            return Attempt.failed(
                    ChatOutcome.TIMEOUT,
                    "no reply within " + config.requestTimeout().toMillis() + " ms",
                    TokenUsage.NONE,
                    null);
        } catch (IOException e) {
            return Attempt.failed(
                    ChatOutcome.SERVER_ERROR,
                    "cannot reach " + config.chatCompletionsUri() + ": " + e,
                    TokenUsage.NONE,
                    null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Attempt.failed(
                    ChatOutcome.TIMEOUT, "interrupted while waiting for the reply", TokenUsage.NONE, null);
        }
        int status = response.statusCode();
        if (status == 429) {
            return Attempt.failed(
                    ChatOutcome.RATE_LIMITED,
                    "HTTP 429: " + excerpt(response.body()),
                    TokenUsage.NONE,
                    retryAfter(response).orElse(null));
        }
        if (status == 408) {
            return Attempt.failed(ChatOutcome.TIMEOUT, "HTTP 408: " + excerpt(response.body()), TokenUsage.NONE, null);
        }
        if (status >= 500) {
            return Attempt.failed(
                    ChatOutcome.SERVER_ERROR,
                    "HTTP " + status + ": " + excerpt(response.body()),
                    TokenUsage.NONE,
                    retryAfter(response).orElse(null));
        }
        if (status < 200 || status >= 300) {
            return Attempt.failed(
                    ChatOutcome.REJECTED, "HTTP " + status + ": " + excerpt(response.body()), TokenUsage.NONE, null);
        }
        return parse(request, response.body());
    }

    private Attempt parse(ChatRequest request, String responseBody) {
        JsonNode root;
        try {
            root = JSON.readTree(responseBody);
        } catch (JsonProcessingException e) {
            return Attempt.failed(
                    ChatOutcome.BAD_RESPONSE, "reply is not JSON: " + excerpt(responseBody), TokenUsage.NONE, null);
        }
        TokenUsage usage = usage(root.path("usage"));
        JsonNode content = root.path("choices").path(0).path("message").path("content");
        if (!content.isTextual()) {
            return Attempt.failed(
                    ChatOutcome.BAD_RESPONSE,
                    "reply has no choices[0].message.content: " + excerpt(responseBody),
                    usage,
                    null);
        }
        String model = root.path("model").isTextual() ? root.path("model").asText() : config.model();
        String text = content.asText();
        if (request.schema() == null) {
            return new Attempt(
                    new ChatResult.Completed(text, null, model, usage, 1, Duration.ZERO), null, null, usage, null);
        }
        JsonNode json;
        try {
            json = JSON.readTree(stripCodeFence(text));
        } catch (JsonProcessingException e) {
            return Attempt.failed(ChatOutcome.BAD_RESPONSE, "content is not JSON: " + excerpt(text), usage, null);
        }
        if (json == null || json.isMissingNode()) {
            return Attempt.failed(ChatOutcome.BAD_RESPONSE, "content is empty", usage, null);
        }
        Optional<String> problem =
                StructuredOutputValidator.validate(request.schema().schema(), json);
        if (problem.isPresent()) {
            return Attempt.failed(
                    ChatOutcome.BAD_RESPONSE,
                    "content does not match schema " + request.schema().name() + ": " + problem.get(),
                    usage,
                    null);
        }
        return new Attempt(
                new ChatResult.Completed(text, json, model, usage, 1, Duration.ZERO), null, null, usage, null);
    }

    byte[] requestBody(ChatRequest request) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", config.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            messages.addObject().put("role", message.role().wireName()).put("content", message.content());
        }
        if (request.schema() != null && config.structuredOutput() == StructuredOutputMode.JSON_OBJECT) {
            messages.addObject()
                    .put("role", ChatMessage.Role.SYSTEM.wireName())
                    .put(
                            "content",
                            "Reply with one JSON object that matches this JSON schema: "
                                    + request.schema().schema());
        }
        body.put("temperature", request.temperature());
        body.put("max_tokens", request.maxTokens());
        if (request.schema() != null) {
            ObjectNode format = body.putObject("response_format");
            if (config.structuredOutput() == StructuredOutputMode.JSON_SCHEMA) {
                format.put("type", "json_schema");
                ObjectNode jsonSchema = format.putObject("json_schema");
                jsonSchema.put("name", request.schema().name());
                jsonSchema.set("schema", request.schema().schema());
                jsonSchema.put("strict", true);
            } else {
                format.put("type", "json_object");
            }
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a chat request", e);
        }
    }

    private static TokenUsage usage(JsonNode usage) {
        long prompt = Math.max(0, usage.path("prompt_tokens").asLong(0));
        long completion = Math.max(0, usage.path("completion_tokens").asLong(0));
        return new TokenUsage(prompt, completion);
    }

    private static Optional<Duration> retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").flatMap(value -> {
            try {
                long seconds = Long.parseLong(value.trim());
                return seconds >= 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty(); // an HTTP date: fall back to the backoff
            }
        });
    }

    /** Some servers wrap JSON content in a Markdown code fence even when asked for JSON. */
    static String stripCodeFence(String text) {
        String trimmed = text.strip();
        if (trimmed.startsWith("```") && trimmed.endsWith("```") && trimmed.length() >= 6) {
            String inner = trimmed.substring(3, trimmed.length() - 3);
            int newline = inner.indexOf('\n');
            if (newline >= 0 && !inner.substring(0, newline).strip().startsWith("{")) {
                inner = inner.substring(newline + 1);
            }
            return inner.strip();
        }
        return trimmed;
    }

    private static String excerpt(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    private static Duration since(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }
}
