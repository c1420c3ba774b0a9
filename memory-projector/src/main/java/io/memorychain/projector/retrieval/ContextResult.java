package io.memorychain.projector.retrieval;

import java.util.List;

/**
 * The context to inject: {@code text} is ready for a system prompt and never longer than the budget.
 *
 * @param text core memory sections, then the delta header, then always-on and working memories
 * @param tokens tokens of {@code text} (cl100k_base), at most the request's {@code max_tokens}
 * @param revision the thread's current revision (pass it as {@code since_rev} next turn)
 * @param coreTruncated true when core memory alone did not fit: only its leading whole memories are in {@code text}
 * @param memoryIds the memories in {@code text}, in order (core, always-on, working)
 * @param omitted relevant working memories left out for lack of budget
 * @param coreTokens tokens of the whole core memory the caller may read (what a budget must allow to load it whole)
 * @param coreOmitted core memories left out because {@code max_tokens} was smaller than the core (never cut mid-way)
 * @param warnings what the caller should know about this context, e.g. that core memory did not fit
 * @param review the open sub-agent proposals waiting for review (batch: the main agent; manual: a user)
 * @param questions contradictions waiting for the user's answer (resolved ask_user), oldest first
 */
public record ContextResult(
        String text,
        int tokens,
        long revision,
        boolean coreTruncated,
        List<String> memoryIds,
        int omitted,
        int coreTokens,
        List<String> coreOmitted,
        List<String> warnings,
        PendingReview review,
        List<Question> questions) {

    public ContextResult {
        memoryIds = List.copyOf(memoryIds);
        coreOmitted = List.copyOf(coreOmitted);
        warnings = List.copyOf(warnings);
        questions = List.copyOf(questions);
    }

    /** Open proposals the reader may see: {@code batch} for the main agent to review, {@code manual} for a user. */
    public record PendingReview(int batch, int manual) {
        public static final PendingReview NONE = new PendingReview(0, 0);
    }

    /** A contradiction to ask the user about: its id and the two sides' ids. */
    public record Question(String id, String firstId, String secondId) {}
}
