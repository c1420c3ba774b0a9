package io.memorychain.api.refinement;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import java.util.List;
import java.util.Locale;

/**
 * A refinement session as the agent (or an operator) is given it.
 *
 * @param session the session: trigger, start, target, counts so far; outcome once completed
 * @param coreTokens the space's core tokens now (cl100k_base on the formatted core view, as {@code GET /core})
 * @param ledger while open: the active core-tier memories (blocks excluded) the reader may see, in creation order;
 *     empty once completed
 * @param edits the session's edits so far, oldest first, each changed memory before and after
 */
public record SessionView(RefinementSession session, int coreTokens, List<Memory> ledger, List<RefinementEdit> edits) {

    public SessionView {
        ledger = List.copyOf(ledger);
        edits = List.copyOf(edits);
    }

    public boolean open() {
        return session.getCompletedSeq() == null;
    }

    /** What the agent is told, e.g. {@code Current core: 7,983 tokens; target: 5,000}. */
    public String budget() {
        return String.format(
                Locale.ROOT, "Current core: %,d tokens; target: %,d", coreTokens, session.getTargetTokens());
    }
}
