package io.memorychain.llm;

import java.time.Duration;
import java.util.Objects;

/** One call as reported to a {@link UsageListener}; {@code model} is null when not configured. */
public record UsageRecord(
        String tenant,
        String purpose,
        String model,
        long promptTokens,
        long completionTokens,
        int attempts,
        Duration latency,
        ChatOutcome outcome) {

    public UsageRecord {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(outcome, "outcome");
    }

    static UsageRecord of(ChatRequest request, String model, ChatResult result) {
        return new UsageRecord(
                request.tenant(),
                request.purpose(),
                model,
                result.usage().promptTokens(),
                result.usage().completionTokens(),
                result.attempts(),
                result.latency(),
                result.outcome());
    }
}
