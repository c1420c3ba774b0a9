package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Approximate kNN against brute force (recall@10 of VECTOR searches, top 10, the index's usual 50 candidates) on 3,000
 * memories with 384-d vectors, with the production settings and the alternatives they can be switched to.
 *
 * <p>Two kinds of vectors: <b>topics</b>, 10 topics with 300 memories each around them (cosine 0.6 to the topic, ~0.36
 * between memories of a topic) and queries near a topic, a rough stand-in for real embeddings: the neighbours must be
 * told apart among the 300 of the topic; and <b>random</b> unit vectors, HNSW's worst case (no structure, a true
 * neighbour is barely closer than any other memory), where Lucene's M=16 graph with 50 candidates finds ~0.7 of the
 * true top 10 in one 3,000-vector graph (the production layout once a rebuild's graphs are built) and ~0.85 in two.
 * Every case waits for the graphs: before, kNN is exact (GraphsLaterTest). A graph that collapsed (e.g. M=4 with beam
 * width 10: 0.70 on topics, 0.32 on random) fails both.
 */
class HnswRecallTest {

    private static final int DIMS = 384;
    private static final int DOCS = 3_000;
    private static final int TOPICS = 10;
    private static final int QUERIES = 100;
    private static final int K = 10;

    static Stream<Arguments> settings() {
        IndexSettings defaults = IndexSettings.DEFAULTS;
        IndexSettings.Hnsw h = defaults.hnsw();
        IndexSettings.Rebuild r = defaults.rebuild();
        return Stream.of(
                Arguments.of("production defaults", defaults),
                Arguments.of(
                        "floats, six segments with graphs built while indexing",
                        defaults.withRebuild(new IndexSettings.Rebuild(r.threads(), 2, 0, false))),
                Arguments.of(
                        "quantized, six segments with graphs built while indexing",
                        defaults.withHnsw(new IndexSettings.Hnsw(h.maxConn(), h.beamWidth(), true, 1))
                                .withRebuild(new IndexSettings.Rebuild(r.threads(), 2, 0, false))),
                Arguments.of(
                        "quantized, merged into one graph by two threads",
                        defaults.withHnsw(new IndexSettings.Hnsw(h.maxConn(), h.beamWidth(), true, 2))
                                .withRebuild(new IndexSettings.Rebuild(r.threads(), 2, 1, false))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void knnFindsTheTrueNearestNeighboursOfTopicVectors(String name, IndexSettings settings) {
        Random random = new Random(5);
        List<float[]> topics = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
            topics.add(TestVectors.randomUnit(random, DIMS));
        }
        Supplier<float[]> aroundATopic = () -> TestVectors.near(topics.get(random.nextInt(TOPICS)), 0.6, random);
        Recall recall = recall(settings, aroundATopic);
        assertThat(recall.all()).as("%s, all memories", name).isGreaterThanOrEqualTo(0.9);
        assertThat(recall.filtered()).as("%s, a fifth", name).isGreaterThanOrEqualTo(0.9);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void knnFindsMostTrueNearestNeighboursOfRandomVectors(String name, IndexSettings settings) {
        Random random = new Random(5);
        Recall recall = recall(settings, () -> TestVectors.randomUnit(random, DIMS));
        assertThat(recall.all()).as("%s, all memories", name).isGreaterThanOrEqualTo(0.6);
        assertThat(recall.filtered()).as("%s, a fifth", name).isGreaterThanOrEqualTo(0.9);
    }

    /** Mean recall@10 of unfiltered searches and of searches restricted to a fifth of the memories. */
    private record Recall(double all, double filtered) {}

    private static Recall recall(IndexSettings settings, Supplier<float[]> vectors) {
        List<float[]> indexed = new ArrayList<>();
        List<IndexEntry> entries = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            float[] v = vectors.get();
            indexed.add(v);
            Memory m = memory("s", id(i), "memory " + i)
                    .setUserId(i % 5 == 0 ? "rare" : "common")
                    .build();
            entries.add(new IndexEntry(m, v));
        }
        try (MemoryIndex index = MemoryIndex.inMemory(settings.withDimensions(DIMS))) {
            index.rebuild(entries.iterator());
            awaitGraphs(index); // recall of the HNSW graphs, not of the exact search before they are built
            if (settings.rebuild().maxSegments() > 0) {
                assertThat(index.stats().segments())
                        .isLessThanOrEqualTo(settings.rebuild().maxSegments());
            }
            double all = 0;
            double filtered = 0;
            for (int q = 0; q < QUERIES; q++) {
                float[] query = vectors.get();
                all += recall(index, indexed, query, null);
                filtered += recall(index, indexed, query, "rare");
            }
            return new Recall(all / QUERIES, filtered / QUERIES);
        }
    }

    private static void awaitGraphs(MemoryIndex index) {
        try {
            assertThat(index.awaitGraphs(java.time.Duration.ofMinutes(2)))
                    .as("graphs built")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertThat(index.stats().graphless()).isZero();
    }

    private static double recall(MemoryIndex index, List<float[]> vectors, float[] query, String user) {
        double[] score = new double[DOCS]; // each dot product once, not once per comparison of the sort
        for (int i = 0; i < DOCS; i++) {
            score[i] = TestVectors.dot(vectors.get(i), query);
        }
        Set<String> truth = new HashSet<>();
        IntStream.range(0, DOCS)
                .filter(i -> user == null || i % 5 == 0)
                .boxed()
                .sorted(Comparator.comparingDouble(i -> -score[i]))
                .limit(K)
                .forEach(i -> truth.add(id(i)));
        SearchRequest request = SearchRequest.builder("s")
                .vector(query)
                .mode(SearchMode.VECTOR)
                .topK(K)
                .filters(
                        user == null
                                ? SearchFilters.NONE
                                : SearchFilters.builder().userId(user).build())
                .build();
        return index.search(request).stream()
                        .filter(h -> truth.contains(h.id()))
                        .count()
                / (double) K;
    }

    private static String id(int i) {
        return String.format("m%05d", i);
    }
}
