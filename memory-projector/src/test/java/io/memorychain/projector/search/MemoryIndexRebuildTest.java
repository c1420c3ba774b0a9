package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.active;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rebuilds with several indexing threads and a final merge (the production defaults). */
@Timeout(60)
class MemoryIndexRebuildTest {

    private static final int DIMS = 16;
    private final Random random = new Random(3);

    private static List<String> bm25(MemoryIndex index, String text) {
        return index
                .search(SearchRequest.builder("s")
                        .text(text)
                        .mode(SearchMode.BM25)
                        .topK(100)
                        .build())
                .stream()
                .map(Hit::id)
                .toList();
    }

    @Test
    void aDefaultRebuildIndexesOnSeveralThreadsIntoAtMostOneSegmentPerThread() {
        int threads = IndexSettings.DEFAULTS.rebuild().threads();
        assertThat(threads).isGreaterThan(1);
        List<IndexEntry> entries = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            entries.add(new IndexEntry(active("s", "m" + i, "note " + i), TestVectors.randomUnit(random, 384)));
        }
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS)) {
            index.rebuild(entries.iterator());
            IndexStats stats = index.stats();
            assertThat(stats.documents()).isEqualTo(2000);
            assertThat(stats.segments()).isBetween(1, threads);
        }
    }

    @Test
    void aLaterEntryForTheSameKeyReplacesTheEarlierOneWhateverTheThreads() {
        IndexSettings settings =
                IndexSettings.DEFAULTS.withDimensions(DIMS).withRebuild(new IndexSettings.Rebuild(3, 1, 2));
        List<IndexEntry> entries = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            for (int i = 0; i < 400; i++) {
                entries.add(new IndexEntry(
                        memory("s", "m" + i, "round" + round + " note " + i)
                                .setVersion(round)
                                .build(),
                        TestVectors.randomUnit(random, DIMS)));
            }
        }
        try (MemoryIndex index = MemoryIndex.inMemory(settings)) {
            assertThat(index.rebuild(entries.iterator())).isEqualTo(1200);

            assertThat(index.count("s")).isEqualTo(400);
            assertThat(bm25(index, "round1")).isEmpty();
            assertThat(bm25(index, "round2")).isEmpty();
            assertThat(bm25(index, "round3")).hasSize(100);
            assertThat(index.search(SearchRequest.builder("s")
                            .text("round3")
                            .mode(SearchMode.BM25)
                            .topK(1000)
                            .build()))
                    .hasSize(400)
                    .allSatisfy(h -> assertThat(h.meta().version()).isEqualTo(3));
            IndexStats stats = index.stats();
            assertThat(stats.documents()).isEqualTo(400);
            assertThat(stats.segments()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void aFailedRebuildPropagatesTheScanFailureAndTheNextRebuildSucceeds() {
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            index.upsert(active("s", "old", "ledger entry"), null);
            Iterator<IndexEntry> failing = new Iterator<>() {
                int next;

                public boolean hasNext() {
                    return true;
                }

                public IndexEntry next() {
                    if (next == 300) {
                        throw new IllegalStateException("store closed");
                    }
                    return new IndexEntry(active("s", "n" + next++, "ledger line"), null);
                }
            };
            assertThatThrownBy(() -> index.rebuild(failing))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("store closed");
            assertThat(bm25(index, "ledger"))
                    .as("the partial content, not the old one")
                    .doesNotContain("old")
                    .hasSizeLessThanOrEqualTo(300);

            List<IndexEntry> good = List.of(
                    new IndexEntry(active("s", "a", "ledger a"), null),
                    new IndexEntry(active("s", "b", "ledger b"), TestVectors.randomUnit(random, DIMS)));
            assertThat(index.rebuild(good.iterator())).isEqualTo(2);
            assertThat(bm25(index, "ledger")).containsExactlyInAnyOrder("a", "b");
            assertThat(index.stats().documents()).isEqualTo(2);
            assertThat(index.stats().deleted()).isZero();
        }
    }

    @Test
    void aRejectedEmbeddingFailsTheRebuild() {
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            List<IndexEntry> entries = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                entries.add(new IndexEntry(active("s", "m" + i, "x"), TestVectors.randomUnit(random, DIMS)));
            }
            entries.add(new IndexEntry(active("s", "bad", "x"), new float[DIMS + 1]));
            assertThatThrownBy(() -> index.rebuild(entries.iterator()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("dimensions");
        }
    }
}
