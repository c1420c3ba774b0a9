package io.memorychain.projector.search;

/**
 * Tuning of a {@link MemoryIndex}.
 *
 * @param dimensions embedding dimensions (384 for all-MiniLM-L6-v2); every vector must have exactly these
 * @param rrfK the k of reciprocal rank fusion, {@code 1/(k + rank)}; 60 is the usual constant
 * @param candidateFactor HYBRID retrieves {@code max(topK * candidateFactor, minCandidates)} candidates per list; kNN
 *     always explores that many (HNSW recall grows with it), then keeps the best topK
 * @param minCandidates see {@code candidateFactor}
 * @param ramBufferMb the IndexWriter's RAM buffer before it flushes a segment during incremental indexing (a rebuild
 *     uses {@link Rebuild#ramBufferMb()}); heap cost: up to the buffer, per index
 * @param hnsw how vectors are stored and the HNSW graph is built
 * @param rebuild how {@link MemoryIndex#rebuild} indexes
 */
public record IndexSettings(
        int dimensions,
        int rrfK,
        int candidateFactor,
        int minCandidates,
        double ramBufferMb,
        Hnsw hnsw,
        Rebuild rebuild) {

    public static final IndexSettings DEFAULTS = new IndexSettings(384, 60, 4, 50, 32);

    public IndexSettings {
        if (dimensions < 1 || dimensions > 4096) {
            throw new IllegalArgumentException("dimensions must be 1..4096, was " + dimensions);
        }
        if (rrfK < 1 || candidateFactor < 1 || minCandidates < 1 || ramBufferMb <= 0) {
            throw new IllegalArgumentException("rrfK, candidateFactor, minCandidates and ramBufferMb must be positive");
        }
        if (hnsw == null || rebuild == null) {
            throw new IllegalArgumentException("hnsw and rebuild settings are required");
        }
    }

    /** The original five settings with the default {@link Hnsw} and {@link Rebuild} settings. */
    public IndexSettings(int dimensions, int rrfK, int candidateFactor, int minCandidates, double ramBufferMb) {
        this(dimensions, rrfK, candidateFactor, minCandidates, ramBufferMb, Hnsw.DEFAULTS, Rebuild.DEFAULTS);
    }

    public IndexSettings withDimensions(int dims) {
        return new IndexSettings(dims, rrfK, candidateFactor, minCandidates, ramBufferMb, hnsw, rebuild);
    }

    public IndexSettings withRamBufferMb(double mb) {
        return new IndexSettings(dimensions, rrfK, candidateFactor, minCandidates, mb, hnsw, rebuild);
    }

    public IndexSettings withHnsw(Hnsw h) {
        return new IndexSettings(dimensions, rrfK, candidateFactor, minCandidates, ramBufferMb, h, rebuild);
    }

    public IndexSettings withRebuild(Rebuild r) {
        return new IndexSettings(dimensions, rrfK, candidateFactor, minCandidates, ramBufferMb, hnsw, r);
    }

    /** Candidates per ranked list for a HYBRID search returning {@code topK}, and kNN candidates in any mode. */
    int candidates(int topK) {
        return Math.min(Math.max(topK * candidateFactor, minCandidates), SearchRequest.MAX_TOP_K * candidateFactor);
    }

    /**
     * The vector field's storage and graph. Measured on this project's 2-core machine with 384-d vectors
     * (docs/benchmarks.md, "Search index"): inserting into the graph is most of a rebuild's CPU (float dot products),
     * and on Java 17, where Lucene 9.12 has no SIMD, 7-bit quantization made neither merges nor searches faster (a byte
     * dot product was 2x slower than a float one), so floats are the default.
     *
     * @param maxConn HNSW neighbours per node (Lucene's M); recall on random vectors dropped fast below 16
     * @param beamWidth candidates explored when a node is inserted. 50 instead of Lucene's 100 halved the rebuild CPU
     *     (100k memories: 127 s instead of 242 s); kNN recall@10 on 100k random vectors was 0.11 instead of 0.14, on
     *     3,000 topic-shaped ones 1.0 either way
     * @param quantized true: vectors are also stored as 7-bit scalar-quantized bytes
     *     ({@code Lucene99HnswScalarQuantizedVectorsFormat}), which merges and searches compare instead of the floats
     *     (the floats stay on disk for re-quantizing on merge, +25% disk). Not measured on Java 21+, where Lucene 9.12
     *     compares bytes with SIMD
     * @param mergeThreads threads that build one merged HNSW graph together; 1 merges on the merge thread alone
     */
    public record Hnsw(int maxConn, int beamWidth, boolean quantized, int mergeThreads) {

        public static final Hnsw DEFAULTS = new Hnsw(16, 50, false, 1);

        public Hnsw {
            if (maxConn < 2 || maxConn > 512 || beamWidth < 1 || beamWidth > 3200) {
                throw new IllegalArgumentException(
                        "maxConn must be 2..512 and beamWidth 1..3200, were " + maxConn + " and " + beamWidth);
            }
            if (mergeThreads < 1) {
                throw new IllegalArgumentException("mergeThreads must be positive, was " + mergeThreads);
            }
        }
    }

    /**
     * How a rebuild indexes. kNN searches one HNSW graph per segment, so segments cost query time, but a graph costs
     * more per insert the larger it is, and merging graphs costs about as much as building them again. Measured at 100k
     * memories on 2 cores with the graphs built while indexing: 2 threads with the default buffer give 2 segments (one
     * per thread) and twice the rebuild rate of one thread when the second core is free (the CPU is the same); merging
     * them into one segment afterwards added ~60% to the rebuild's CPU; a 32 MB buffer gave 13 segments, a rebuild
     * needing ~35% less CPU and ~3x slower HYBRID searches. With {@code graphsLater} (the default) the rebuild leaves
     * graphless segments and one graph is built from them in the background: searchable 11x sooner, and one graph for
     * less CPU than two (docs/benchmarks.md, "Search index").
     *
     * @param threads indexing threads; the entries are partitioned among them by key, so entries for the same key are
     *     indexed in iteration order by the same thread. Each thread fills its own segment
     * @param ramBufferMb the RAM buffer while the rebuild runs, which sets the segment size of a rebuild: a thread's
     *     segment is written when all of them together hold this much. 100k memories with 384-d vectors take ~300 MB
     *     (heap used peaked at ~360 MiB), so 512 keeps them in one segment per thread. It is heap the rebuild may take
     *     for a while, per index rebuilding at the same time
     * @param maxSegments when positive, the rebuild ends by merging the index down to at most this many segments; 0
     *     leaves the segments to the merge policy
     * @param graphsLater true: the rebuild writes the vectors without HNSW graphs ({@link GraphlessVectorsFormat}, kNN
     *     searches of them are exact) and returns; the graphs are then built in the background by merging the index
     *     into one segment. Measured at 100k memories on 2 cores (docs/benchmarks.md, "Search index"): the rebuild then
     *     costs what the text costs, several times faster; false: the graphs are built while indexing, and the rebuild
     *     returns when they are done
     */
    public record Rebuild(int threads, double ramBufferMb, int maxSegments, boolean graphsLater) {

        public static final Rebuild DEFAULTS = new Rebuild(2, 512, 0, true);

        public Rebuild {
            if (threads < 1 || ramBufferMb <= 0 || maxSegments < 0) {
                throw new IllegalArgumentException("threads and ramBufferMb must be positive and maxSegments >= 0");
            }
        }

        /** A rebuild that builds the graphs later (see {@code graphsLater}). */
        public Rebuild(int threads, double ramBufferMb, int maxSegments) {
            this(threads, ramBufferMb, maxSegments, true);
        }
    }
}
