package io.memorychain.projector.search;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Vectors stored without an HNSW graph, searched exactly: what a {@link MemoryIndex#rebuild rebuild} writes, so a
 * rebuild costs what indexing the text costs and not what building graphs costs (most of it: ~1.3 ms of CPU per memory
 * at 100k). A kNN search scores every vector its filter admits (Lucene's flat format alone finds nothing), so these
 * segments answer with exact neighbours, at a cost that grows with the space searched. The index then builds the graphs
 * in the background by merging these segments into HNSW ones ({@link MemoryIndex}, "graph build").
 *
 * <p>Readers find this format by its name, recorded in each segment (Java SPI, {@code META-INF/services}); the files
 * are Lucene 9.9's flat vector files, so the format has no version of its own to keep.
 */
public final class GraphlessVectorsFormat extends KnnVectorsFormat {

    /** The name recorded in the segments; never change it (segments written with it could no longer be read). */
    public static final String NAME = "MemoryChainGraphless99";

    private final Lucene99FlatVectorsFormat flat =
            new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

    /** For the SPI loader. */
    public GraphlessVectorsFormat() {
        super(NAME);
    }

    @Override
    public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
        return flat.fieldsWriter(state);
    }

    @Override
    public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
        return new ExactReader(flat.fieldsReader(state));
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return flat.getMaxDimensions(fieldName);
    }

    /** The flat reader with an exhaustive search. */
    private static final class ExactReader extends KnnVectorsReader {

        private final FlatVectorsReader vectors;

        ExactReader(FlatVectorsReader vectors) {
            this.vectors = vectors;
        }

        @Override
        public void search(String field, float[] target, KnnCollector collector, AcceptDocs acceptDocs)
                throws IOException {
            collect(vectors.getRandomVectorScorer(field, target), collector, acceptDocs.bits());
        }

        @Override
        public void search(String field, byte[] target, KnnCollector collector, AcceptDocs acceptDocs)
                throws IOException {
            collect(vectors.getRandomVectorScorer(field, target), collector, acceptDocs.bits());
        }

        private static void collect(RandomVectorScorer scorer, KnnCollector collector, Bits acceptDocs)
                throws IOException {
            if (scorer == null) {
                return;
            }
            Bits accepted = scorer.getAcceptOrds(acceptDocs);
            for (int ord = 0, max = scorer.maxOrd(); ord < max && !collector.earlyTerminated(); ord++) {
                if (accepted == null || accepted.get(ord)) {
                    collector.incVisitedCount(1);
                    collector.collect(scorer.ordToDoc(ord), scorer.score(ord));
                }
            }
        }

        @Override
        public FloatVectorValues getFloatVectorValues(String field) throws IOException {
            return vectors.getFloatVectorValues(field);
        }

        @Override
        public ByteVectorValues getByteVectorValues(String field) throws IOException {
            return vectors.getByteVectorValues(field);
        }

        @Override
        public void checkIntegrity() throws IOException {
            vectors.checkIntegrity();
        }

        @Override
        public void close() throws IOException {
            vectors.close();
        }
    }
}
