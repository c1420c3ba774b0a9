package io.memorychain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;

/** What a call returned: {@link Completed} or {@link Failed}. Usage and attempts are summed over the retries. */
public sealed interface ChatResult {

    ChatOutcome outcome();

    TokenUsage usage();

    int attempts();

    Duration latency();

    default boolean ok() {
        return outcome() == ChatOutcome.OK;
    }

    /**
     * A reply.
     *
     * @param content the message content as sent by the model
     * @param json the parsed content when the request had a schema (already validated against it), else null
     * @param model the model the server says answered
     */
    record Completed(String content, JsonNode json, String model, TokenUsage usage, int attempts, Duration latency)
            implements ChatResult {

        public Completed {
            Objects.requireNonNull(content, "content");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(latency, "latency");
        }

        @Override
        public ChatOutcome outcome() {
            return ChatOutcome.OK;
        }
    }

    /** A failure of kind {@code outcome} (never OK), with a human message saying why. */
    record Failed(ChatOutcome outcome, String message, TokenUsage usage, int attempts, Duration latency)
            implements ChatResult {

        public Failed {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(latency, "latency");
            if (outcome == ChatOutcome.OK) {
                throw new IllegalArgumentException("a failure cannot have outcome OK");
            }
        }
    }
}
