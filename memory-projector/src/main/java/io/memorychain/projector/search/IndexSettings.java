package io.memorychain.projector.search;

/**
 * Tuning of a {@link MemoryIndex}.
 *
 * @param dimensions          embedding dimensions (384 for all-MiniLM-L6-v2); every vector must have exactly these
 * @param rrfK                the k of reciprocal rank fusion, {@code 1/(k + rank)}; 60 is the usual constant
 * @param candidateFactor     HYBRID retrieves {@code max(topK * candidateFactor, minCandidates)} candidates per list;
 *                            kNN always explores that many (HNSW recall grows with it), then keeps the best topK
 * @param minCandidates       see {@code candidateFactor}
 * @param ramBufferMb         the IndexWriter's RAM buffer before it flushes a segment. It also sets the segment size
 *                            of a rebuild (32 MB holds ~15k memories with 384-d vectors), and kNN searches the HNSW
 *                            graph of every segment: measured at 100k memories, 32 MB gave 7 segments, a 135 s rebuild
 *                            and ~12 ms kNN; 256 MB gave one segment, a 250 s rebuild and ~2.5 ms kNN (heap cost:
 *                            the buffer, per index)
 */
public record IndexSettings(int dimensions, int rrfK, int candidateFactor, int minCandidates, double ramBufferMb) {

    public static final IndexSettings DEFAULTS = new IndexSettings(384, 60, 4, 50, 32);

    public IndexSettings {
        if (dimensions < 1 || dimensions > 4096) {
            throw new IllegalArgumentException("dimensions must be 1..4096, was " + dimensions);
        }
        if (rrfK < 1 || candidateFactor < 1 || minCandidates < 1 || ramBufferMb <= 0) {
            throw new IllegalArgumentException("rrfK, candidateFactor, minCandidates and ramBufferMb must be positive");
        }
    }

    public IndexSettings withDimensions(int dims) {
        return new IndexSettings(dims, rrfK, candidateFactor, minCandidates, ramBufferMb);
    }

    /** Candidates per ranked list for a HYBRID search returning {@code topK}, and kNN candidates in any mode. */
    int candidates(int topK) {
        return Math.min(Math.max(topK * candidateFactor, minCandidates), SearchRequest.MAX_TOP_K * candidateFactor);
    }
}
