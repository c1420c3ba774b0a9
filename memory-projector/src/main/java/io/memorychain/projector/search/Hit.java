package io.memorychain.projector.search;

/**
 * One search result: the memory's id, the score the result list is ordered by, the raw signals a reranker can use, and
 * the indexed metadata (read the memory itself from the views).
 *
 * @param score the ordering score: the BM25 score in BM25 mode, the cosine similarity in VECTOR mode, the
 *     reciprocal-rank-fusion score {@code sum 1/(k + rank)} in HYBRID mode
 * @param bm25 rank and BM25 score in the keyword candidate list; null when the memory was not in it
 * @param vector rank and cosine similarity (-1..1) in the vector candidate list; null when it was not in it
 */
public record Hit(String id, float score, Signal bm25, Signal vector, MemoryMeta meta) {

    /** A position (1-based) and score in one ranked candidate list. */
    public record Signal(int rank, float score) {}
}
