package io.memorychain.projector.retrieval;

/**
 * What an agent runtime asks for at the start of a turn (docs/architecture.md §7, context).
 *
 * @param space the agent's space
 * @param agent the agent (its category allowlist applies); null: no allowlist
 * @param message the user's message: working memories are retrieved for it
 * @param threadId the conversation thread (null: memories outside threads)
 * @param sinceRev the thread revision the runtime saw last turn; null: no delta header
 * @param maxTokens the budget of the whole context, 1..{@value #MAX_TOKENS}
 */
public record ContextRequest(
        String space, String agent, String message, String threadId, Long sinceRev, int maxTokens) {

    public static final int MAX_TOKENS = 100_000;
    public static final int DEFAULT_MAX_TOKENS = 2_000;

    public ContextRequest {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("message must not be blank");
        }
        if (maxTokens < 1 || maxTokens > MAX_TOKENS) {
            throw new IllegalArgumentException("max_tokens must be between 1 and " + MAX_TOKENS + ", was " + maxTokens);
        }
        if (sinceRev != null && sinceRev < 0) {
            throw new IllegalArgumentException("since_rev must be >= 0, was " + sinceRev);
        }
    }
}
