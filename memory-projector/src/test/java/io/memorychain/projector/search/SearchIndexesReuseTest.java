package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.T0;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index on disk is reused by the next process only when committed at the position its task's stores stand at, by the
 * same model and settings, with intact files; anything else rebuilds from the stores (docs/architecture.md §6).
 */
class SearchIndexesReuseTest {

    private static final int DIMS = 8;
    private static final IndexSettings SETTINGS = IndexSettings.DEFAULTS.withDimensions(DIMS);
    private static final String MODEL = "model-a";

    @TempDir
    Path taskDir;

    private final Random random = new Random(11);
    /** The task's stores: what a rebuild reads, by (space, id), the latest version only. */
    private final Map<String, IndexEntry> stores = new LinkedHashMap<>();

    /** Reads the stores; counts what {@link SearchIndexes#open} asked of it. */
    private final class StoreSource implements IndexSource {
        int rebuilds;
        int reloads;

        @Override
        public void rebuild(MemoryIndex index) {
            rebuilds++;
            index.rebuild(new ArrayList<>(stores.values()).iterator());
        }

        @Override
        public void reload(MemoryIndex index) {
            reloads++;
            index.reloadThreads(stores.values().stream().map(IndexEntry::memory).iterator());
        }
    }

    /** One processed record: the stores and the index take the memory, both at the record's offset. */
    private void write(MemoryIndex index, long offset, Memory m, float[] vector) {
        index.advance("events", offset);
        stores.put(m.getSpace() + "/" + m.getId(), new IndexEntry(m, vector));
        index.upsert(m, vector);
    }

    private Memory threaded(String id, String content, int minutes) {
        return memory("s", id, content)
                .setThreadId("t1")
                .setCreatedAt(T0.plusSeconds(60L * minutes))
                .build();
    }

    /** A first process: three memories, committed at events offset 2 when released. */
    private float[] firstProcess() {
        SearchIndexes indexes = SearchIndexes.onDisk(SETTINGS, MODEL);
        StoreSource source = new StoreSource();
        MemoryIndex index = indexes.open(0, taskDir, Map.of(), source);
        assertThat(source.rebuilds).isEqualTo(1);
        float[] cat = TestVectors.randomUnit(random, DIMS);
        write(index, 0, threaded("m1", "the user adopted a kitten named Miso", 1), cat);
        write(index, 1, threaded("m2", "invoice INV-117 was paid late", 2), TestVectors.randomUnit(random, DIMS));
        write(index, 2, threaded("m3", "the VPN drops every evening", 3), null);
        indexes.release(0);
        indexes.close();
        return cat;
    }

    private static List<String> ids(MemoryIndex index, SearchRequest request) {
        return index.search(request).stream().map(Hit::id).toList();
    }

    /** The same searches on the index and on one rebuilt from the stores give the same answers. */
    private void assertAnswersLikeARebuild(MemoryIndex index, float[] query) {
        MemoryIndex rebuilt = MemoryIndex.inMemory(SETTINGS);
        try {
            rebuilt.rebuild(new ArrayList<>(stores.values()).iterator());
            for (SearchRequest request : List.of(
                    SearchRequest.builder("s")
                            .text("kitten invoice vpn")
                            .mode(SearchMode.BM25)
                            .topK(10)
                            .build(),
                    SearchRequest.builder("s")
                            .vector(query)
                            .mode(SearchMode.VECTOR)
                            .topK(10)
                            .build(),
                    SearchRequest.builder("s")
                            .text("evening")
                            .vector(query)
                            .topK(10)
                            .build())) {
                assertThat(ids(index, request)).as(request.toString()).isEqualTo(ids(rebuilt, request));
            }
            List<Memory> all = stores.values().stream().map(IndexEntry::memory).toList();
            assertThat(index.threadNeighbours("s", all))
                    .isEqualTo(rebuilt.threadNeighbours("s", all))
                    .containsEntry("m2", new ThreadNeighbours("m1", "m3"));
            assertThat(index.stats().documents()).isEqualTo(rebuilt.stats().documents());
        } finally {
            rebuilt.close();
        }
    }

    @Test
    void anIndexCommittedAtTheStoresPositionIsReusedAnswersLikeARebuildAndTakesLaterWrites() {
        float[] cat = firstProcess();

        SearchIndexes second = SearchIndexes.onDisk(SETTINGS, MODEL);
        StoreSource source = new StoreSource();
        MemoryIndex index = second.open(0, taskDir, Map.of("events", 2L), source);
        assertThat(source.rebuilds).as("no rebuild").isZero();
        assertThat(source.reloads).isEqualTo(1);
        assertThat(second.reuses()).isEqualTo(1);
        assertThat(second.rebuilds()).isZero();
        assertThat(index.position()).isEqualTo(Map.of("events", 2L));
        assertAnswersLikeARebuild(index, cat);

        // writes after the reuse are applied, and committed with the next release
        write(
                index,
                3,
                Memory.newBuilder(threaded("m1", "the user adopted a kitten named Miso and a puppy named Rex", 1))
                        .setVersion(2)
                        .build(),
                cat);
        index.advance("embeddings", 0);
        write(index, 4, threaded("m4", "a puppy needs walks", 4), TestVectors.randomUnit(random, DIMS));
        assertThat(ids(
                        index,
                        SearchRequest.builder("s")
                                .text("puppy")
                                .mode(SearchMode.BM25)
                                .build()))
                .containsExactlyInAnyOrder("m1", "m4");
        assertAnswersLikeARebuild(index, cat);
        second.release(0);
        second.close();

        SearchIndexes third = SearchIndexes.onDisk(SETTINGS, MODEL);
        StoreSource again = new StoreSource();
        MemoryIndex reopened = third.open(0, taskDir, Map.of("events", 4L, "embeddings", 0L), again);
        assertThat(again.rebuilds).isZero();
        assertAnswersLikeARebuild(reopened, cat);
        third.release(0);
        third.close();
    }

    @Test
    void anotherRamBufferReusesTheIndex() {
        firstProcess();
        SearchIndexes second = SearchIndexes.onDisk(SETTINGS.withRamBufferMb(4), MODEL);
        StoreSource source = new StoreSource();
        second.open(0, taskDir, Map.of("events", 2L), source);
        assertThat(source.rebuilds).isZero();
        assertThat(second.reuses()).isEqualTo(1);
        second.close();
    }

    @Test
    void storesAtAnotherPositionRebuild() {
        float[] cat = firstProcess();
        for (Map<String, Long> position : List.of(
                Map.of("events", 1L),
                Map.of("events", 3L),
                Map.of("events", 2L, "embeddings", 0L),
                Map.<String, Long>of())) {
            // what the first process committed stays on disk: a rebuild is never committed unless released
            assertRebuilt(SearchIndexes.onDisk(SETTINGS, MODEL), position, cat, false);
        }
    }

    @Test
    void anotherModelOrOtherSettingsRebuild() {
        float[] cat = firstProcess();
        assertRebuilt(SearchIndexes.onDisk(SETTINGS, "model-b"), Map.of("events", 2L), cat, false);
    }

    @Test
    void otherHnswSettingsRebuild() {
        float[] cat = firstProcess();
        assertRebuilt(
                SearchIndexes.onDisk(SETTINGS.withHnsw(new IndexSettings.Hnsw(12, 50, false, 1)), MODEL),
                Map.of("events", 2L),
                cat,
                false);
    }

    @Test
    void aDeletedIndexFolderRebuilds() throws IOException {
        float[] cat = firstProcess();
        deleteRecursively(SearchIndexes.folder(taskDir));
        assertRebuilt(SearchIndexes.onDisk(SETTINGS, MODEL), Map.of("events", 2L), cat, true);
    }

    @Test
    void aMissingSegmentFileRebuilds() throws IOException {
        float[] cat = firstProcess();
        Path victim = largestFile(".vec", ".cfs", ".tim");
        Files.delete(victim);
        assertRebuilt(SearchIndexes.onDisk(SETTINGS, MODEL), Map.of("events", 2L), cat, true);
    }

    @Test
    void aCorruptedSegmentFileRebuilds() throws IOException {
        float[] cat = firstProcess();
        Path victim = largestFile(".vec", ".cfs", ".tim");
        try (FileChannel channel = FileChannel.open(victim, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long at = channel.size() / 2; // the middle of the file: only the checksum of the whole file finds it
            ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x5A)).rewind();
            channel.write(b, at);
        }
        assertRebuilt(SearchIndexes.onDisk(SETTINGS, MODEL), Map.of("events", 2L), cat, true);
    }

    @Test
    void anIndexWhoseWriteFailedIsNotCommittedAndRebuilds() {
        float[] cat = firstProcess();
        SearchIndexes second = SearchIndexes.onDisk(SETTINGS, MODEL);
        MemoryIndex index = second.open(0, taskDir, Map.of("events", 2L), new StoreSource());
        index.advance("events", 3);
        Memory m5 = threaded("m5", "a rejected vector", 5);
        stores.put("s/m5", new IndexEntry(m5, null)); // the stores took it; the index did not
        assertThatThrownBy(() -> index.upsert(m5, new float[DIMS])).isInstanceOf(IllegalArgumentException.class);
        second.release(0); // refused to commit: the folder keeps the commit at offset 2
        second.close();
        assertRebuilt(SearchIndexes.onDisk(SETTINGS, MODEL), Map.of("events", 3L), cat, false);
    }

    /** Opening at {@code position} rebuilds from the stores; the rebuilt index answers like a rebuild. */
    private void assertRebuilt(SearchIndexes indexes, Map<String, Long> position, float[] query, boolean damaged) {
        StoreSource source = new StoreSource();
        MemoryIndex index = indexes.open(0, taskDir, position, source);
        try {
            assertThat(source.rebuilds)
                    .as("rebuilt (damaged files: %s)", damaged)
                    .isEqualTo(1);
            assertThat(source.reloads).isZero();
            assertThat(indexes.reuses()).isZero();
            assertThat(index.position()).isEqualTo(position);
            assertAnswersLikeARebuild(index, query);
        } finally {
            indexes.close(); // no release: nothing committed
        }
    }

    private Path largestFile(String... suffixes) throws IOException {
        try (Stream<Path> files = Files.list(SearchIndexes.folder(taskDir))) {
            return files.filter(f -> Stream.of(suffixes)
                            .anyMatch(s -> f.getFileName().toString().endsWith(s)))
                    .max(Comparator.comparingLong(f -> f.toFile().length()))
                    .orElseThrow();
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
