package io.memorychain.llm;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The models of a process: the default one and per-agent overrides, sharing one {@link LlmRuntime} (so one token budget
 * per tenant whichever model a call uses; each call is checked against its own model's {@code daily-token-budget}).
 * With nothing configured, {@link #forAgent} returns a model whose {@code configured()} is false and whose calls fail
 * NOT_CONFIGURED without any network call.
 */
public final class ChatModels {

    private final LlmSettings settings;
    private final LlmRuntime runtime;
    private final ConcurrentMap<LlmConfig, ChatModel> models = new ConcurrentHashMap<>();

    public ChatModels(LlmSettings settings, LlmRuntime runtime) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    /** The default model (jobs that are not run for a particular agent). */
    public ChatModel defaultModel() {
        return model(settings.defaults());
    }

    /** The model configured for {@code agentId}, else the default. */
    public ChatModel forAgent(String agentId) {
        return model(settings.forAgent(agentId));
    }

    public LlmSettings settings() {
        return settings;
    }

    private ChatModel model(LlmConfig config) {
        return models.computeIfAbsent(
                config,
                c -> c.configured()
                        ? new OpenAiCompatibleChatModel(c, runtime)
                        : new NotConfiguredChatModel(runtime.usage()));
    }
}
