package io.memorychain.projector.search;

import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;

/**
 * The codec of the index: Lucene 9.12's default with the vector field's format from {@link IndexSettings.Hnsw}, or
 * {@link GraphlessVectorsFormat} while {@link #graphless} is set (a rebuild). The format of a segment is the one set
 * when the segment is written (flushed or merged). Only writing needs this instance: readers find each field's format
 * by the name recorded in the segment.
 */
final class VectorCodec extends Lucene912Codec {

    /** Bits per quantized component: Lucene's "int8" scalar quantization stores 7-bit values. */
    private static final int QUANTIZED_BITS = 7;

    private final KnnVectorsFormat graphs;
    private final KnnVectorsFormat graphless = new GraphlessVectorsFormat();
    private volatile boolean writingGraphless;
    private volatile boolean stoppingGraphs;

    /** @param mergeExecutor runs the graph-building workers of a merge; null when {@code hnsw.mergeThreads()} is 1 */
    VectorCodec(IndexSettings.Hnsw hnsw, ExecutorService mergeExecutor) {
        this.graphs = hnsw.quantized()
                ? new Lucene99HnswScalarQuantizedVectorsFormat(
                        hnsw.maxConn(),
                        hnsw.beamWidth(),
                        hnsw.mergeThreads(),
                        QUANTIZED_BITS,
                        false,
                        null,
                        mergeExecutor)
                : new StoppableHnswFormat(hnsw, mergeExecutor, () -> stoppingGraphs);
    }

    /**
     * True: every graph being built fails at its next vector comparison (an aborted merge), so that closing or clearing
     * the writer, which waits for running merges, does not wait for a long graph build. Not for quantized vectors
     * (Lucene's own format, whose builds cannot be stopped).
     */
    void stopGraphs(boolean stop) {
        stoppingGraphs = stop;
    }

    /** True: segments written from now on store vectors without a graph; false: with the HNSW graph. */
    void graphless(boolean on) {
        writingGraphless = on;
    }

    @Override
    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return writingGraphless ? graphless : graphs;
    }
}
