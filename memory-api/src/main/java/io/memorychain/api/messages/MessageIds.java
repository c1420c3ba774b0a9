package io.memorychain.api.messages;

import io.memorychain.events.chain.Canonical;
import java.nio.charset.StandardCharsets;

/**
 * Deterministic request ids of the writes one message causes (docs/architecture.md §20): a base derived from the
 * caller's idempotency key, or else from the space, thread, user, run and message text, plus a suffix per write
 * ({@code :m} the remembered memory, {@code :e0} an entity, {@code :r0} a relation, {@code :f0} a fact...). A retried
 * message reuses every id, so the sequencer answers the first outcomes and nothing is stored twice. The same text sent
 * again in the same thread within the request-id retention (7 days) is the same message.
 */
final class MessageIds {

    private MessageIds() {}

    public static String base(
            String space, String idempotencyKey, String threadId, String userId, String runId, String message) {
        String basis = idempotencyKey != null
                ? "key\n" + idempotencyKey
                : "message\n" + nz(threadId) + "\n" + nz(userId) + "\n" + nz(runId) + "\n" + message;
        return "msg-" + hash(space + "\n" + basis);
    }

    /** The ids of the deletions a confirmation token causes. */
    public static String forget(String token) {
        return "fgt-" + hash(token);
    }

    private static String hash(String s) {
        return Canonical.hex(Canonical.sha256(s.getBytes(StandardCharsets.UTF_8)))
                .substring(0, 32);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
