package io.memorychain.projector.retrieval;

import java.util.List;

/**
 * The context to inject: {@code text} is ready for a system prompt and never longer than the budget.
 *
 * @param text          core memory sections, then the delta header, then always-on and working memories
 * @param tokens        tokens of {@code text} (cl100k_base), at most the request's {@code max_tokens}
 * @param revision      the thread's current revision (pass it as {@code since_rev} next turn)
 * @param coreTruncated true when core memory alone did not fit and was cut at a line boundary
 * @param memoryIds     the memories in {@code text}, in order (core, always-on, working)
 * @param omitted       relevant working memories left out for lack of budget
 */
public record ContextResult(String text, int tokens, long revision, boolean coreTruncated, List<String> memoryIds,
                            int omitted) {
}
