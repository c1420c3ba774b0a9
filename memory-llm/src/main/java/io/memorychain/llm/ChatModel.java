package io.memorychain.llm;

/**
 * The LLM port: one chat completion. Implementations never throw for infrastructure or model failures: they return a
 * {@link ChatResult.Failed} with a machine-readable {@link ChatOutcome}, and report every call (success or failure) to
 * their {@link UsageListener}.
 */
public interface ChatModel {

    /** Runs one completion (with the implementation's retries); never returns null, never throws for a failed call. */
    ChatResult complete(ChatRequest request);

    /** False when no model server is configured: then every call fails {@link ChatOutcome#NOT_CONFIGURED} at once. */
    boolean configured();

    /** The model name sent to the server, or null when not configured. */
    String modelName();
}
