package io.memorychain.api.backend;

import io.memorychain.api.config.LlmModelConfig;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import jakarta.inject.Singleton;

/**
 * The service's chat models ({@code memory.llm.*}, {@code memory.llm.agents.<id>.*}) for the features that call a model
 * on a request or a schedule (messages, the refinement agent job), their calls counted in the process's LLM usage. The
 * settings are parsed on first use, so that invalid settings fail the call that needs a model, with the reason, rather
 * than the service's start.
 */
@Singleton
public class ServiceChatModels {

    private final LlmModelConfig llm;
    private final MemoryBackend backend;
    private volatile ChatModels models;

    public ServiceChatModels(LlmModelConfig llm, MemoryBackend backend) {
        this.llm = llm;
        this.backend = backend;
    }

    /**
     * The models, parsed on the first call.
     *
     * @throws IllegalArgumentException naming the invalid setting
     */
    public ChatModels get() {
        ChatModels m = models;
        if (m == null) {
            synchronized (this) {
                if (models == null) {
                    models = new ChatModels(llm.settings(), LlmRuntime.standard(backend.llmUsage()));
                }
                m = models;
            }
        }
        return m;
    }
}
