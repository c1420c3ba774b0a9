package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.active;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Memory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryIndexLifecycleTest {

    private static final int DIMS = 16;
    /**
     * kNN candidates beyond the corpus (at most 300 memories), so HNSW answers exactly: graphs built in another order
     * (a rebuild against incremental writes) may otherwise differ in an approximate tail, as they did under load.
     */
    private static final IndexSettings EXACT = new IndexSettings(DIMS, 60, 4, 400, 32);

    private final MemoryIndex index = MemoryIndex.inMemory(EXACT);
    private final Random random = new Random(7);

    @AfterEach
    void close() {
        index.close();
    }

    private List<String> ids(SearchRequest request) {
        return index.search(request).stream().map(Hit::id).toList();
    }

    private List<String> bm25(String space, String text) {
        return ids(SearchRequest.builder(space)
                .text(text)
                .mode(SearchMode.BM25)
                .topK(100)
                .build());
    }

    @Test
    void searchSeesAnUpsertAsSoonAsUpsertReturns() {
        index.upsert(active("s", "m1", "the user prefers green tea"), null);
        assertThat(bm25("s", "green tea")).containsExactly("m1");
        index.upsert(active("s", "m2", "the user dislikes green peppers"), null);
        assertThat(bm25("s", "green")).containsExactlyInAnyOrder("m1", "m2");
    }

    @Test
    void upsertOfANewVersionReplacesTheOldOneWithoutDuplicates() {
        float[] before = TestVectors.randomUnit(random, DIMS);
        float[] after = TestVectors.randomUnit(random, DIMS);
        index.upsert(active("s", "m1", "meeting moved to Tuesday"), before);
        index.upsert(
                memory("s", "m1", "meeting moved to Friday")
                        .setVersion(2)
                        .setImportance(5)
                        .build(),
                after);

        assertThat(bm25("s", "tuesday")).isEmpty();
        List<Hit> hits = index.search(
                SearchRequest.builder("s").text("meeting friday").vector(before).build());
        assertThat(hits).extracting(Hit::id).containsExactly("m1");
        assertThat(hits.get(0).meta().version()).isEqualTo(2);
        assertThat(hits.get(0).meta().importance()).isEqualTo(5);
        assertThat(hits.get(0).vector().score()).isCloseTo((float) TestVectors.cosine(before, after), within());
        assertThat(index.count("s")).isEqualTo(1);
    }

    @Test
    void upsertWithoutEmbeddingDropsTheOldVector() {
        index.upsert(active("s", "m1", "alpha"), TestVectors.randomUnit(random, DIMS));
        index.upsert(memory("s", "m1", "alpha").setVersion(2).build(), null);
        assertThat(ids(SearchRequest.builder("s")
                        .vector(TestVectors.randomUnit(random, DIMS))
                        .mode(SearchMode.VECTOR)
                        .build()))
                .isEmpty();
        assertThat(bm25("s", "alpha")).containsExactly("m1");
    }

    @Test
    void deleteRemovesTheMemoryFromEverySearchMode() {
        float[] v = TestVectors.randomUnit(random, DIMS);
        index.upsert(active("s", "m1", "quarterly report draft"), v);
        index.upsert(active("s", "m2", "quarterly budget"), TestVectors.randomUnit(random, DIMS));
        index.delete("s", "m1");
        index.delete("s", "never-indexed");

        assertThat(bm25("s", "quarterly report")).containsExactly("m2");
        assertThat(ids(SearchRequest.builder("s")
                        .vector(v)
                        .mode(SearchMode.VECTOR)
                        .build()))
                .containsExactly("m2");
        assertThat(index.count("s")).isEqualTo(1);
    }

    @Test
    void spacesAreIsolatedForSearchCountAndDelete() {
        float[] v = TestVectors.randomUnit(random, DIMS);
        index.upsert(active("a", "m1", "shared words about kafka"), v);
        index.upsert(active("b", "m1", "shared words about kafka"), v);
        index.upsert(active("b", "m2", "kafka kafka kafka"), v);
        index.delete("a", "m1");

        assertThat(index.count("a")).isZero();
        assertThat(index.count("b")).isEqualTo(2);
        for (SearchMode mode : SearchMode.values()) {
            SearchRequest inA = SearchRequest.builder("a")
                    .text("kafka")
                    .vector(v)
                    .mode(mode)
                    .build();
            SearchRequest inB = SearchRequest.builder("b")
                    .text("kafka")
                    .vector(v)
                    .mode(mode)
                    .build();
            assertThat(index.search(inA)).as(mode.name()).isEmpty();
            assertThat(index.search(inB))
                    .as(mode.name())
                    .allSatisfy(h -> assertThat(h.meta().space()).isEqualTo("b"))
                    .extracting(Hit::id)
                    .containsExactlyInAnyOrder("m1", "m2");
        }
    }

    @Test
    void rebuildGivesTheSameResultsAsIncrementalIndexing() {
        List<Memory> finals = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        try (MemoryIndex incremental = MemoryIndex.inMemory(EXACT)) {
            Corpus corpus = new Corpus(new Random(11));
            for (int i = 0; i < 300; i++) {
                String id = String.format("m%04d", i);
                float[] v = TestVectors.randomUnit(random, DIMS);
                if (i % 7 == 0) { // an earlier version, replaced below
                    incremental.upsert(
                            memory("s", id, corpus.sentence(12)).build(), TestVectors.randomUnit(random, DIMS));
                }
                Memory m = memory("s", id, corpus.sentence(8 + i % 13))
                        .setVersion(i % 7 == 0 ? 2 : 1)
                        .setCategory(i % 3 == 0 ? "tasks" : null)
                        .setImportance(1 + i % 5)
                        .build();
                incremental.upsert(m, v);
                if (i % 11 == 0) {
                    incremental.delete("s", id);
                } else {
                    finals.add(m);
                    vectors.add(v);
                }
            }
            Iterator<IndexEntry> scan = new Iterator<>() {
                int next;

                public boolean hasNext() {
                    return next < finals.size();
                }

                public IndexEntry next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    IndexEntry e = new IndexEntry(finals.get(next), vectors.get(next));
                    next++;
                    return e;
                }
            };
            index.upsert(active("s", "stale", "content from before the rebuild"), null);
            assertThat(index.rebuild(scan)).isEqualTo(finals.size());

            assertThat(index.count("s")).isEqualTo(incremental.count("s")).isEqualTo(finals.size());
            Corpus queries = new Corpus(new Random(99));
            for (int q = 0; q < 30; q++) {
                SearchRequest request = SearchRequest.builder("s")
                        .text(queries.sentence(3))
                        .vector(TestVectors.randomUnit(random, DIMS))
                        .mode(SearchMode.values()[q % 3])
                        .topK(10)
                        .filters(
                                q % 2 == 0
                                        ? SearchFilters.NONE
                                        : SearchFilters.builder()
                                                .importanceMin(2)
                                                .build())
                        .build();
                assertThat(ids(request))
                        .as("query %d %s", q, request.mode())
                        .isNotEmpty()
                        .isEqualTo(incremental.search(request).stream()
                                .map(Hit::id)
                                .toList());
            }
        }
    }

    @Test
    void searchesDuringARebuildSeeThePreviousContentUntilItCompletes() {
        index.upsert(active("s", "old", "ledger entry"), null);
        Iterator<IndexEntry> scan = List.of(
                        new IndexEntry(active("s", "new1", "ledger entry one"), null),
                        new IndexEntry(active("s", "new2", "ledger entry two"), null))
                .iterator();
        List<List<String>> seenMidway = new ArrayList<>();
        index.rebuild(new Iterator<>() {
            public boolean hasNext() {
                return scan.hasNext();
            }

            public IndexEntry next() {
                seenMidway.add(bm25("s", "ledger"));
                return scan.next();
            }
        });
        assertThat(seenMidway).containsOnly(List.of("old"));
        assertThat(bm25("s", "ledger")).containsExactlyInAnyOrder("new1", "new2");
    }

    @Test
    void onDiskIndexWorksAndStartsEmptyWhenReopened(@TempDir Path folder) {
        try (MemoryIndex disk = MemoryIndex.onDisk(folder, IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            disk.upsert(active("s", "m1", "persisted nowhere"), TestVectors.randomUnit(random, DIMS));
            assertThat(disk.count("s")).isEqualTo(1);
        }
        try (MemoryIndex reopened = MemoryIndex.onDisk(folder, IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            assertThat(reopened.count("s")).isZero();
        }
    }

    @Test
    void concurrentSearchesDuringWritesNeverFailAndSeeCompletedWrites() throws Exception {
        int writes = 400;
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> readers = new ArrayList<>();
        AtomicInteger completed = new AtomicInteger();
        for (int r = 0; r < 3; r++) {
            Thread reader = new Thread(() -> {
                try {
                    while (completed.get() < writes) {
                        int before = completed.get();
                        int seen = index.count("s");
                        if (seen < before) {
                            throw new AssertionError("saw " + seen + " memories after " + before + " upserts");
                        }
                        index.search(
                                SearchRequest.builder("s").text("note").topK(5).build());
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            reader.start();
            readers.add(reader);
        }
        for (int i = 0; i < writes; i++) {
            index.upsert(active("s", "m" + i, "note number " + i), TestVectors.randomUnit(random, DIMS));
            completed.incrementAndGet();
        }
        for (Thread reader : readers) {
            reader.join();
        }
        assertThat(failures).isEmpty();
        assertThat(index.count("s")).isEqualTo(writes);
    }

    @Test
    void vectorsOfTheWrongShapeAreRejected() {
        assertThatThrownBy(() -> index.upsert(active("s", "m1", "x"), new float[DIMS + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimensions");
        assertThatThrownBy(() -> index.upsert(active("s", "m1", "x"), new float[DIMS]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zero");
        float[] nan = TestVectors.randomUnit(random, DIMS);
        nan[3] = Float.NaN;
        assertThatThrownBy(() ->
                        index.search(SearchRequest.builder("s").vector(nan).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-finite");
    }

    private static Offset<Float> within() {
        return Offset.offset(1e-4f);
    }
}
