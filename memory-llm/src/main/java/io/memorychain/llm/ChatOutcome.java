package io.memorychain.llm;

/** How a call ended: {@link #OK} or the machine-readable kind of its failure. */
public enum ChatOutcome {
    OK(false),
    /** No model server configured; no request was made. */
    NOT_CONFIGURED(false),
    /** The server did not answer within the request timeout (retried). */
    TIMEOUT(true),
    /** HTTP 429 (retried, honouring Retry-After). */
    RATE_LIMITED(true),
    /** HTTP 5xx or the server could not be reached (retried). */
    SERVER_ERROR(true),
    /** Malformed reply, or structured content that is not JSON or does not match the schema (retried). */
    BAD_RESPONSE(true),
    /** The tenant's daily token budget is used up; no request was made. */
    BUDGET_EXCEEDED(false),
    /** HTTP 4xx other than 429 (400, 401, 403, 404, ...): not retried. */
    REJECTED(false);

    private final boolean retryable;

    ChatOutcome(boolean retryable) {
        this.retryable = retryable;
    }

    /** Whether another attempt may succeed. */
    public boolean retryable() {
        return retryable;
    }
}
