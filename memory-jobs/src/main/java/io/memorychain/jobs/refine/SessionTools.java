package io.memorychain.jobs.refine;

import java.util.List;

/**
 * The knife of an open refinement session (docs/architecture.md §9) as the agent job uses it: the service implements it
 * over its refinement-session service, publishing requests with the session's id; the sequencer decides each. A refused
 * request throws {@link Refused} with its code and message, which the agent is shown as the step's result.
 */
public interface SessionTools {

    /** The session: its id, current and target core tokens and the ledger, as text for the model. */
    String ledger();

    /** search_memories over the ledger; the matches as text. */
    String search(String query);

    /** consolidate_memories: the new memory's id. */
    String consolidate(List<String> ids, String content, String reason);

    /** update_memory: the memory's new version, as text. */
    String update(String id, String content);

    /** delete_memory (soft). */
    String delete(String id, String reason);

    /** protect_memory. */
    String protect(String id);

    /** complete_refinement: the outcome line the chain recorded. */
    String complete(String summary);

    /** A request the sequencer (or the service's input rules) refused. */
    final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String code;

        public Refused(String code, String message) {
            super(message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }
}
