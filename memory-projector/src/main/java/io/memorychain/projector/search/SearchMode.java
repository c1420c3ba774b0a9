package io.memorychain.projector.search;

/** How {@link MemoryIndex#search} ranks: keywords, embeddings, or both fused. */
public enum SearchMode {
    /** BM25 over content, summary and tags (needs query text). */
    BM25,
    /** Nearest neighbours by cosine over the HNSW vector field (needs a query vector). */
    VECTOR,
    /**
     * Reciprocal rank fusion of the BM25 and the vector candidate lists. Uses whichever of text and vector the request
     * has; with only one of them it ranks like that single mode (scores are still RRF scores).
     */
    HYBRID
}
