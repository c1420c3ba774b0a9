package io.memorychain.llm;

import java.util.List;
import java.util.Objects;

/**
 * One completion request.
 *
 * @param tenant whose daily token budget pays for it (a space or an agent id)
 * @param purpose the job asking, e.g. {@code tom}; usage is counted per purpose
 * @param messages at least one message
 * @param schema structured output: the reply content must be JSON matching it; null for free text
 * @param maxTokens completion token cap, 1..100000
 * @param temperature 0..2 (0 by default: jobs want repeatable answers)
 */
public record ChatRequest(
        String tenant,
        String purpose,
        List<ChatMessage> messages,
        JsonSchema schema,
        int maxTokens,
        double temperature) {

    public static final int DEFAULT_MAX_TOKENS = 512;

    public ChatRequest {
        requireText(tenant, "tenant");
        requireText(purpose, "purpose");
        Objects.requireNonNull(messages, "messages");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        if (maxTokens < 1 || maxTokens > 100_000) {
            throw new IllegalArgumentException("maxTokens must be in 1..100000, not " + maxTokens);
        }
        if (!(temperature >= 0.0 && temperature <= 2.0)) {
            throw new IllegalArgumentException("temperature must be in 0..2, not " + temperature);
        }
    }

    /** Free-text request with the defaults: no schema, {@value #DEFAULT_MAX_TOKENS} tokens, temperature 0. */
    public static ChatRequest of(String tenant, String purpose, List<ChatMessage> messages) {
        return new ChatRequest(tenant, purpose, messages, null, DEFAULT_MAX_TOKENS, 0.0);
    }

    public ChatRequest withSchema(JsonSchema newSchema) {
        return new ChatRequest(tenant, purpose, messages, newSchema, maxTokens, temperature);
    }

    public ChatRequest withMaxTokens(int newMaxTokens) {
        return new ChatRequest(tenant, purpose, messages, schema, newMaxTokens, temperature);
    }

    public ChatRequest withTemperature(double newTemperature) {
        return new ChatRequest(tenant, purpose, messages, schema, maxTokens, newTemperature);
    }

    private static void requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
