package io.memorychain.deploy.faults;

/**
 * One call of the load, as the history records it: which client made it, of which kind, to which instance, about which
 * space, request id ({@code Idempotency-Key}, writes) and memory, when it was invoked and when it completed (ms since
 * the run's start), and how: {@link Outcome}, the HTTP status (0: no answer) and a short detail.
 */
record Operation(
        int client,
        Kind kind,
        String instance,
        String space,
        String requestId,
        String memoryId,
        long invokedAt,
        long completedAt,
        Outcome outcome,
        int status,
        String detail) {

    enum Kind {
        CREATE,
        UPDATE,
        READ
    }

    enum Outcome {
        /** A 2xx answer: a write acknowledged, a read answered. */
        OK,
        /** An error answer (4xx, 5xx): a write may still be applied later (a 503 TIMEOUT), never twice. */
        ERROR,
        /** No answer within the client's timeout, or the connection failed: a write may or may not be applied. */
        NO_ANSWER
    }
}
