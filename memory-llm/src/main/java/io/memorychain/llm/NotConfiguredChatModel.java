package io.memorychain.llm;

import java.time.Duration;
import java.util.Objects;

/** The model when none is configured: {@link #configured()} is false and every call fails NOT_CONFIGURED, offline. */
public final class NotConfiguredChatModel implements ChatModel {

    private final UsageListener usage;

    public NotConfiguredChatModel(UsageListener usage) {
        this.usage = Objects.requireNonNull(usage, "usage");
    }

    @Override
    public ChatResult complete(ChatRequest request) {
        ChatResult result = new ChatResult.Failed(
                ChatOutcome.NOT_CONFIGURED,
                "no model configured (memory.llm.base-url and memory.llm.model)",
                TokenUsage.NONE,
                0,
                Duration.ZERO);
        usage.onCall(UsageRecord.of(request, null, result));
        return result;
    }

    @Override
    public boolean configured() {
        return false;
    }

    @Override
    public String modelName() {
        return null;
    }
}
