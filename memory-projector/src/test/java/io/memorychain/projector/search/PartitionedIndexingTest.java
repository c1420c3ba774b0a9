package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PartitionedIndexingTest {

    /** Entries m0..m(keys-1) repeated {@code rounds} times; the version says which round. */
    private static List<IndexEntry> rounds(int keys, int rounds) {
        List<IndexEntry> entries = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            for (int k = 0; k < keys; k++) {
                entries.add(new IndexEntry(
                        memory("s", "m" + k, "text").setVersion(r).build(), null));
            }
        }
        return entries;
    }

    @Test
    void everyEntryIsIndexedOnceAndEntriesOfOneKeyInIterationOrderOnOneThread() throws IOException {
        Map<String, List<Integer>> versions = new ConcurrentHashMap<>();
        Map<String, Set<String>> threads = new ConcurrentHashMap<>();
        Set<String> allThreads = ConcurrentHashMap.newKeySet();
        PartitionedIndexing indexing = new PartitionedIndexing(3, e -> {
            String id = e.memory().getId();
            versions.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>())
                    .add(e.memory().getVersion());
            threads.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet())
                    .add(Thread.currentThread().getName());
            allThreads.add(Thread.currentThread().getName());
        });
        AtomicInteger lastFed = new AtomicInteger();

        long count = indexing.run(rounds(500, 4).iterator(), fed -> lastFed.set((int) fed));

        assertThat(count).isEqualTo(2000);
        assertThat(lastFed).hasValue(2000);
        assertThat(versions).hasSize(500).allSatisfy((id, v) -> assertThat(v).containsExactly(1, 2, 3, 4));
        assertThat(threads).allSatisfy((id, t) -> assertThat(t).hasSize(1));
        assertThat(allThreads)
                .hasSize(3)
                .noneMatch(t -> t.equals(Thread.currentThread().getName()));
    }

    @Test
    void oneThreadIndexesOnTheCallingThread() throws IOException {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        long count = new PartitionedIndexing(
                        1, e -> threads.add(Thread.currentThread().getName()))
                .run(rounds(10, 1).iterator(), fed -> {});
        assertThat(count).isEqualTo(10);
        assertThat(threads).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void aFailingIndexingThreadStopsTheRunAndItsExceptionIsRethrown() {
        AtomicInteger indexed = new AtomicInteger();
        PartitionedIndexing indexing = new PartitionedIndexing(2, e -> {
            if (e.memory().getId().equals("m77")) {
                throw new IOException("disk full");
            }
            indexed.incrementAndGet();
        });
        assertThatThrownBy(() -> indexing.run(rounds(100_000, 1).iterator(), fed -> {}))
                .isInstanceOf(IOException.class)
                .hasMessage("disk full");
        assertThat(indexed.get()).isLessThan(100_000 - 1);
        assertThat(rebuildThreadsAlive()).isZero();
    }

    @Test
    void aFailingIteratorStopsTheRunAfterTheThreadsFinishedAndItsExceptionIsRethrown() {
        AtomicInteger indexed = new AtomicInteger();
        Iterator<IndexEntry> entries = rounds(1000, 1).iterator();
        Iterator<IndexEntry> failing = new Iterator<>() {
            int next;

            public boolean hasNext() {
                return true;
            }

            public IndexEntry next() {
                if (next++ == 500) {
                    throw new IllegalStateException("store closed");
                }
                return entries.next();
            }
        };
        PartitionedIndexing indexing = new PartitionedIndexing(2, e -> indexed.incrementAndGet());
        assertThatThrownBy(() -> indexing.run(failing, fed -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("store closed");
        assertThat(indexed.get()).isLessThanOrEqualTo(500);
        assertThat(rebuildThreadsAlive()).isZero();
    }

    private static long rebuildThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("search-index-rebuild-") && t.isAlive())
                .count();
    }

    @Test
    void anEmptyIteratorIndexesNothing() throws IOException {
        Iterator<IndexEntry> none = new Iterator<>() {
            public boolean hasNext() {
                return false;
            }

            public IndexEntry next() {
                throw new NoSuchElementException();
            }
        };
        assertThat(new PartitionedIndexing(2, e -> {
                            throw new AssertionError("nothing to index");
                        })
                        .run(none, fed -> {}))
                .isZero();
    }
}
