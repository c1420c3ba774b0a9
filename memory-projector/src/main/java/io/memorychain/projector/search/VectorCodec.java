package io.memorychain.projector.search;

import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * The codec of the index: Lucene 10's default with the vector field's format from {@link IndexSettings.Hnsw}, or
 * {@link GraphlessVectorsFormat} while {@link #graphless} is set (a rebuild). The format of a segment is the one set
 * when the segment is written (flushed or merged). Only writing needs this instance: readers find each field's format
 * by the name recorded in the segment.
 */
final class VectorCodec extends Lucene104Codec {

    private final KnnVectorsFormat graphs;
    private final KnnVectorsFormat graphless = new GraphlessVectorsFormat();
    private volatile boolean writingGraphless;
    private volatile boolean stoppingGraphs;

    /** @param mergeExecutor runs the graph-building workers of a merge; null when {@code hnsw.mergeThreads()} is 1 */
    VectorCodec(IndexSettings.Hnsw hnsw, ExecutorService mergeExecutor) {
        // quantized: Lucene's "int8" scalar quantization, which stores 7-bit values
        this.graphs = hnsw.quantized()
                ? new Lucene104HnswScalarQuantizedVectorsFormat(
                        ScalarEncoding.SEVEN_BIT, hnsw.maxConn(), hnsw.beamWidth(), hnsw.mergeThreads(), mergeExecutor)
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
