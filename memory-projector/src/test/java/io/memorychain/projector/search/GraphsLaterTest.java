package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.memorychain.avro.Memory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuild writes its vectors without HNSW graphs ({@link GraphlessVectorsFormat}), whose kNN searches are exact, and
 * the graphs are built afterwards in the background; an index committed before its graphs were built gets them when it
 * is reopened.
 */
class GraphsLaterTest {

    private static final int DIMS = 64;
    private static final int DOCS = 1_500;
    private static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path folder;

    private final Random random = new Random(11);
    private final List<float[]> vectors = new ArrayList<>();
    private final List<Memory> memories = new ArrayList<>();

    GraphsLaterTest() {
        for (int i = 0; i < DOCS; i++) {
            vectors.add(TestVectors.randomUnit(random, DIMS));
            memories.add(memory("s", "m" + i, "note " + i)
                    .setUserId(i % 3 == 0 ? "rare" : "common")
                    .build());
        }
    }

    @Test
    void graphlessSegmentsFindTheExactNearestNeighboursWithAndWithoutAFilter() throws IOException {
        try (Directory directory = new MMapDirectory(folder)) {
            writeGraphless(directory, Map.of());
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (int q = 0; q < 20; q++) {
                    float[] query = TestVectors.randomUnit(random, DIMS);
                    assertThat(nearest(searcher, query, null)).isEqualTo(bruteForce(query, null));
                    assertThat(nearest(searcher, query, "rare")).isEqualTo(bruteForce(query, "rare"));
                }
            }
        }
    }

    @Test
    void aRebuildBuildsItsGraphsInTheBackgroundIntoOneSegment() throws InterruptedException {
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            index.rebuild(entries());

            assertThat(index.awaitGraphs(WAIT)).isTrue();
            assertThat(index.buildingGraphs()).isFalse();
            IndexStats stats = index.stats();
            assertThat(stats.documents()).isEqualTo(DOCS);
            assertThat(stats.graphless()).isZero();
            assertThat(stats.segments()).isEqualTo(1);
            float[] query = vectors.get(7);
            assertThat(index.search(SearchRequest.builder("s")
                            .vector(query)
                            .mode(SearchMode.VECTOR)
                            .topK(1)
                            .build()))
                    .extracting(Hit::id)
                    .containsExactly("m7");
        }
    }

    @Test
    void aRebuildIntoASingleSegmentGetsItsGraphToo() throws InterruptedException {
        // one thread, one segment: a plain forceMerge(1) would leave it as it is, without a graph
        IndexSettings settings =
                IndexSettings.DEFAULTS.withDimensions(DIMS).withRebuild(new IndexSettings.Rebuild(1, 512, 0, true));
        try (MemoryIndex index = MemoryIndex.inMemory(settings)) {
            index.rebuild(entries());
            assertThat(index.awaitGraphs(WAIT)).isTrue();

            IndexStats stats = index.stats();
            assertThat(stats.segments()).isEqualTo(1);
            assertThat(stats.graphless()).isZero();
            assertThat(stats.documents()).isEqualTo(DOCS);
        }
    }

    @Test
    void aRebuildThatBuildsItsGraphsWhileIndexingLeavesNothingToBuild() {
        IndexSettings settings =
                IndexSettings.DEFAULTS.withDimensions(DIMS).withRebuild(new IndexSettings.Rebuild(2, 512, 0, false));
        try (MemoryIndex index = MemoryIndex.inMemory(settings)) {
            index.rebuild(entries());

            assertThat(index.buildingGraphs()).isFalse();
            assertThat(index.stats().graphless()).isZero();
        }
    }

    @Test
    void anIndexCommittedWithoutItsGraphsGetsThemWhenReopened() throws IOException, InterruptedException {
        Map<String, String> position = Map.of("position", "42");
        try (Directory directory = new MMapDirectory(folder)) {
            writeGraphless(directory, position);
        }

        MemoryIndex reopened = MemoryIndex.reopen(folder, IndexSettings.DEFAULTS.withDimensions(DIMS), position);

        assertThat(reopened).isNotNull();
        try (MemoryIndex index = reopened) {
            assertThat(index.awaitGraphs(WAIT)).isTrue();
            IndexStats stats = index.stats();
            assertThat(stats.documents()).isEqualTo(DOCS);
            assertThat(stats.graphless()).isZero();
            assertThat(stats.segments()).isEqualTo(1);
        }
    }

    @Test
    void aGraphBuildInFlightDoesNotHoldUpTheNextRebuildOrTheClose() {
        // a 40k-vector graph takes ~30 s to build on a 2-core machine; clearing or closing the writer used to wait
        // for it (Lucene aborts a merge only when it writes)
        int docs = 40_000;
        Random r = new Random(3);
        List<IndexEntry> entries = IntStream.range(0, docs)
                .mapToObj(
                        i -> new IndexEntry(memory("s", "m" + i, "note " + i).build(), TestVectors.randomUnit(r, 384)))
                .toList();
        Path files = folder.resolve("index");
        MemoryIndex index = MemoryIndex.onDisk(files, IndexSettings.DEFAULTS);
        try {
            index.rebuild(entries.iterator());
            awaitGraphPhase(files, docs);

            assertTimeoutPreemptively(Duration.ofSeconds(15), () -> index.rebuild(entries.iterator()));
            assertThat(index.count("s")).isEqualTo(docs);
            awaitGraphPhase(files, docs);
        } finally {
            assertTimeoutPreemptively(Duration.ofSeconds(10), index::close);
        }
    }

    @Test
    void anErasureDuringAGraphBuildLeavesTheIndexFilesWhenTheBuildEnds() throws Exception {
        String marker = "wombatquay4417";
        int docs = 8_000;
        Random r = new Random(4);
        List<IndexEntry> entries = IntStream.range(0, docs)
                .mapToObj(i -> new IndexEntry(
                        memory("s", "m" + i, i == 0 ? "the code is " + marker : "note " + i)
                                .build(),
                        TestVectors.randomUnit(r, 384)))
                .toList();
        Path files = folder.resolve("index");
        try (MemoryIndex index = MemoryIndex.onDisk(files, IndexSettings.DEFAULTS)) {
            index.rebuild(entries.iterator());
            awaitGraphPhase(files, docs);
            assertThat(ExpungeDeletesTest.filesWith(files, marker)).isNotEmpty();

            index.delete("s", "m0");
            index.expungeDeletes();
            assertThat(index.awaitGraphs(WAIT)).isTrue();

            assertThat(ExpungeDeletesTest.filesWith(files, marker)).isEmpty();
            assertThat(index.count("s")).isEqualTo(docs - 1);
            assertThat(index.stats().graphless()).isZero();
        }
    }

    /**
     * Waits until the graph build's merge has written every vector into the merged segment's vector file (the segments
     * it merges hold half of them each): from then on, the merge writes nothing until its graph is done.
     */
    private static void awaitGraphPhase(Path files, int vectors) {
        long copied = (long) vectors * 384 * Float.BYTES;
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    try (java.util.stream.Stream<Path> listed = java.nio.file.Files.list(files)) {
                        return listed.anyMatch(f -> f.getFileName().toString().endsWith(".vec") && size(f) >= copied);
                    }
                });
    }

    private static long size(Path file) {
        try {
            return java.nio.file.Files.size(file);
        } catch (IOException e) { // deleted meanwhile
            return -1;
        }
    }

    /** Two graphless segments, as a rebuild on two threads leaves them, committed with the given data. */
    private void writeGraphless(Directory directory, Map<String, String> commitData) throws IOException {
        VectorCodec codec = new VectorCodec(IndexSettings.Hnsw.DEFAULTS, null);
        codec.graphless(true);
        IndexWriterConfig config = new IndexWriterConfig(MemoryDocuments.analyzer())
                .setCodec(codec)
                .setIndexSort(TopByScoreThenId.INDEX_ORDER);
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            for (int i = 0; i < DOCS; i++) {
                writer.addDocument(MemoryDocuments.toDocument(memories.get(i), vectors.get(i)));
                if (i == DOCS / 2) {
                    writer.flush();
                }
            }
            writer.setLiveCommitData(commitData.entrySet());
            writer.commit();
        }
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            assertThat(reader.leaves()).hasSize(2);
        }
    }

    private java.util.Iterator<IndexEntry> entries() {
        return IntStream.range(0, DOCS)
                .mapToObj(i -> new IndexEntry(memories.get(i), vectors.get(i)))
                .iterator();
    }

    private static List<String> nearest(IndexSearcher searcher, float[] query, String user) throws IOException {
        TermQuery filter = user == null ? null : new TermQuery(new Term(MemoryDocuments.USER_ID, user));
        List<String> ids = new ArrayList<>();
        for (ScoreDoc hit :
                searcher.search(new KnnFloatVectorQuery(MemoryDocuments.VECTOR, query, 10, filter), 10).scoreDocs) {
            ids.add(searcher.storedFields().document(hit.doc).get(MemoryDocuments.ID));
        }
        return ids;
    }

    private List<String> bruteForce(float[] query, String user) {
        return IntStream.range(0, DOCS)
                .filter(i -> user == null || user.equals(memories.get(i).getUserId()))
                .boxed()
                .sorted(Comparator.comparingDouble(i -> -TestVectors.dot(vectors.get(i), query)))
                .limit(10)
                .map(i -> memories.get(i).getId())
                .toList();
    }
}
