package io.memorychain.projector.search;

import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;

/**
 * The codec of the index: Lucene 9.12's default with the vector field's format from {@link IndexSettings.Hnsw}. Only
 * writing needs this instance: readers find each field's format by the name recorded in the segment.
 */
final class VectorCodec {

    /** Bits per quantized component: Lucene's "int8" scalar quantization stores 7-bit values. */
    private static final int QUANTIZED_BITS = 7;

    private VectorCodec() {
    }

    /**
     * @param mergeExecutor runs the graph-building workers of a merge; null when {@code hnsw.mergeThreads()} is 1
     */
    static Codec of(IndexSettings.Hnsw hnsw, ExecutorService mergeExecutor) {
        KnnVectorsFormat format = format(hnsw, mergeExecutor);
        return new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return format;
            }
        };
    }

    static KnnVectorsFormat format(IndexSettings.Hnsw hnsw, ExecutorService mergeExecutor) {
        if (hnsw.quantized()) {
            return new Lucene99HnswScalarQuantizedVectorsFormat(hnsw.maxConn(), hnsw.beamWidth(), hnsw.mergeThreads(),
                    QUANTIZED_BITS, false, null, mergeExecutor);
        }
        return new Lucene99HnswVectorsFormat(hnsw.maxConn(), hnsw.beamWidth(), hnsw.mergeThreads(), mergeExecutor);
    }
}
