package io.memorychain.projector.search;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsWriter;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.TaskExecutor;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * Lucene's HNSW format ({@code Lucene99HnswVectorsFormat}, still Lucene 10's), writing the same files under the same
 * name (so Lucene's own reader reads them), whose graph building can be stopped. Lucene aborts a merge only when it
 * writes, and building a merged graph writes nothing for as long as it takes (minutes for a million vectors), so
 * closing or clearing the writer waited for the whole build (measured: 45 s for 60k vectors), blocking the stream
 * thread that closes a task. Here every vector comparison of a graph build first checks {@code stop}, and a build
 * stopped that way ends as an aborted merge.
 */
final class StoppableHnswFormat extends KnnVectorsFormat {

    private static final String LUCENE_NAME = "Lucene99HnswVectorsFormat";

    private final int maxConn;
    private final int beamWidth;
    private final int mergeWorkers;
    private final TaskExecutor mergeExecutor;
    private final FlatVectorsScorer scorer;
    private final KnnVectorsFormat reading = new Lucene99HnswVectorsFormat();

    /** @param mergeExecutor runs the graph workers of a merge; null when {@code hnsw.mergeThreads()} is 1 */
    StoppableHnswFormat(IndexSettings.Hnsw hnsw, ExecutorService mergeExecutor, BooleanSupplier stop) {
        super(LUCENE_NAME);
        this.maxConn = hnsw.maxConn();
        this.beamWidth = hnsw.beamWidth();
        this.mergeWorkers = mergeExecutor == null ? 1 : hnsw.mergeThreads();
        this.mergeExecutor = mergeExecutor == null ? null : new TaskExecutor(mergeExecutor);
        this.scorer = new StoppableScorer(FlatVectorScorerUtil.getLucene99FlatVectorsScorer(), stop);
    }

    @Override
    public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
        Lucene99FlatVectorsFormat flat = new Lucene99FlatVectorsFormat(scorer);
        return new Lucene99HnswVectorsWriter(
                state, maxConn, beamWidth, flat, flat.fieldsWriter(state), mergeWorkers, mergeExecutor);
    }

    @Override
    public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
        return reading.fieldsReader(state);
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return reading.getMaxDimensions(fieldName);
    }

    private record StoppableScorer(FlatVectorsScorer scorer, BooleanSupplier stop) implements FlatVectorsScorer {

        @Override
        public RandomVectorScorerSupplier getRandomVectorScorerSupplier(
                VectorSimilarityFunction similarity, KnnVectorValues values) throws IOException {
            return new StoppableSupplier(scorer.getRandomVectorScorerSupplier(similarity, values), stop);
        }

        @Override
        public RandomVectorScorer getRandomVectorScorer(
                VectorSimilarityFunction similarity, KnnVectorValues values, float[] target) throws IOException {
            return new Stoppable(scorer.getRandomVectorScorer(similarity, values, target), stop);
        }

        @Override
        public RandomVectorScorer getRandomVectorScorer(
                VectorSimilarityFunction similarity, KnnVectorValues values, byte[] target) throws IOException {
            return new Stoppable(scorer.getRandomVectorScorer(similarity, values, target), stop);
        }
    }

    private record StoppableSupplier(RandomVectorScorerSupplier supplier, BooleanSupplier stop)
            implements RandomVectorScorerSupplier {

        @Override
        public UpdateableRandomVectorScorer scorer() throws IOException {
            return new StoppableUpdateable(supplier.scorer(), stop);
        }

        @Override
        public RandomVectorScorerSupplier copy() throws IOException {
            return new StoppableSupplier(supplier.copy(), stop);
        }
    }

    /** Ends a graph build as an aborted merge once {@code stop} says so (checked before every comparison). */
    private static void stopIfAsked(BooleanSupplier stop) throws MergePolicy.MergeAbortedException {
        if (stop.getAsBoolean()) {
            throw new MergePolicy.MergeAbortedException("the search index is closing or being cleared");
        }
    }

    private record StoppableUpdateable(UpdateableRandomVectorScorer scorer, BooleanSupplier stop)
            implements UpdateableRandomVectorScorer {

        @Override
        public void setScoringOrdinal(int node) throws IOException {
            scorer.setScoringOrdinal(node);
        }

        @Override
        public float score(int node) throws IOException {
            stopIfAsked(stop);
            return scorer.score(node);
        }

        @Override
        public float bulkScore(int[] nodes, float[] scores, int numNodes) throws IOException {
            stopIfAsked(stop);
            return scorer.bulkScore(nodes, scores, numNodes);
        }

        @Override
        public int maxOrd() {
            return scorer.maxOrd();
        }

        @Override
        public int ordToDoc(int ord) {
            return scorer.ordToDoc(ord);
        }

        @Override
        public Bits getAcceptOrds(Bits acceptDocs) {
            return scorer.getAcceptOrds(acceptDocs);
        }
    }

    private record Stoppable(RandomVectorScorer scorer, BooleanSupplier stop) implements RandomVectorScorer {

        @Override
        public float score(int node) throws IOException {
            stopIfAsked(stop);
            return scorer.score(node);
        }

        @Override
        public int maxOrd() {
            return scorer.maxOrd();
        }

        @Override
        public int ordToDoc(int ord) {
            return scorer.ordToDoc(ord);
        }

        @Override
        public Bits getAcceptOrds(Bits acceptDocs) {
            return scorer.getAcceptOrds(acceptDocs);
        }
    }
}
