package io.memorychain.projector.retrieval;

import java.util.regex.Pattern;

/**
 * Whether a user's message asks for a procedure (seed 004's procedural memory: "how to" knowledge is recalled when a
 * task needs it, not injected into every turn). Context assembly leaves procedural memories out unless it does.
 */
final class ProcedureIntent {

    private static final Pattern ASKS = Pattern.compile(
            "\\b(how (do|can|should|would|to)|how's it done|steps?"
                    + "|procedures?|process(es)? for|instructions?|walk me through|guide me|checklist|runbook|workflow"
                    + "|recipe|playbook|what's the way to|remind me how)\\b",
            Pattern.CASE_INSENSITIVE);

    private ProcedureIntent() {}

    static boolean asks(String message) {
        return message != null && ASKS.matcher(message).find();
    }
}
