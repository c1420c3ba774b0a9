package io.memorychain.projector.retrieval;

import java.util.List;

/**
 * Reorders the best candidates of {@code memory.query} by a model that reads the query and each candidate's text
 * together (a cross-encoder), after the BM25 + vector fusion (docs/architecture.md §7). {@link #NONE} keeps the fused
 * order. Adapters live outside this module (memory-llm's {@code TeiRerankClient}, wired by memory-api).
 */
@FunctionalInterface
public interface Reranker {

    /** Keeps the fused order: no model is called. */
    Reranker NONE = (query, texts) -> {
        throw new UnsupportedOperationException("Reranker.NONE is never called");
    };

    /**
     * Scores each text for the query: one score per text, in the same order, higher is more relevant.
     *
     * @throws RuntimeException when no scores could be obtained (timeout, error, malformed reply); the query then keeps
     *     the fused order
     */
    List<Double> scores(String query, List<String> texts);
}
