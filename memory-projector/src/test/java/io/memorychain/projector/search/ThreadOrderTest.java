package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.T0;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-memory thread order answers {@link MemoryIndex#threadNeighbours} exactly as the two sorted index searches per
 * memory it replaced ({@link MemoryIndex#threadNeighboursBySearch}): on random writes with many equal
 * {@code created_at}, every state, re-upserts that move a memory to another thread, state or time, deletes, several
 * spaces, ids that sort differently in UTF-16 and in UTF-8, and after a rebuild.
 */
class ThreadOrderTest {

    private static final int DIMS = 8;
    private static final String[] SPACES = {"s", "other"};
    private static final String[] THREADS = {"t1", "t2", "t3", null};
    private static final String[] ID_STEMS = {"a", "B", "é", "\uFFFD", "\uD83D\uDE00", "z"};

    private final MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));

    @AfterEach
    void close() {
        index.close();
    }

    @Test
    void answersAsTheSortedSearchesOnRandomWritesDeletesAndAfterARebuild() {
        for (int seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            Map<String, Memory> latest = new LinkedHashMap<>(); // space + id -> the version last written
            List<Memory> asked = new ArrayList<>();
            for (int op = 0; op < 400; op++) {
                String space = SPACES[random.nextInt(SPACES.length)];
                String id = ID_STEMS[random.nextInt(ID_STEMS.length)] + random.nextInt(40);
                if (random.nextInt(10) == 0) {
                    index.delete(space, id);
                    latest.remove(space + "/" + id);
                    continue;
                }
                MemoryState state = random.nextInt(3) == 0
                        ? MemoryState.values()[random.nextInt(MemoryState.values().length)]
                        : MemoryState.ACTIVE;
                Memory m = memory(space, id, "turn " + id)
                        .setThreadId(THREADS[random.nextInt(THREADS.length)])
                        .setCreatedAt(T0.plusSeconds(60L * random.nextInt(12)))
                        .setState(state)
                        .build();
                index.upsert(m, TestVectors.randomUnit(random, DIMS));
                latest.put(space + "/" + id, m);
                asked.add(m);
                if (op % 50 == 0) {
                    assertSameAnswers(asked);
                }
            }
            assertSameAnswers(asked);
            assertSameAnswers(new ArrayList<>(latest.values()));
            assertThat(index.threadNeighbours("s", asked).values()) // the comparison covered real neighbours
                    .anyMatch(n -> n.previous() != null && n.next() != null);

            List<Memory> shuffled = new ArrayList<>(latest.values());
            Collections.shuffle(shuffled, random);
            index.rebuild(shuffled.stream()
                    .map(m -> new IndexEntry(m, TestVectors.randomUnit(random, DIMS)))
                    .iterator());
            assertSameAnswers(asked);
            index.rebuild(Collections.emptyIterator());
            assertThat(index.threadNeighbours("s", asked).values())
                    .allMatch(n -> n.equals(new ThreadNeighbours(null, null)));
        }
    }

    private void assertSameAnswers(List<Memory> asked) {
        for (String space : SPACES) {
            Map<String, ThreadNeighbours> searched = index.threadNeighboursBySearch(space, asked);
            assertThat(index.threadNeighbours(space, asked)).isEqualTo(searched);
        }
    }

    @Test
    void breaksTiesOfEqualCreatedAtByIdAsTheIndexSortsIds() {
        Random random = new Random(3);
        Memory early = memory("s", "m", "x").setThreadId("t").setCreatedAt(T0).build();
        Memory tieLow = memory("s", "\uFFFD", "x")
                .setThreadId("t")
                .setCreatedAt(T0.plusSeconds(60))
                .build();
        Memory tieHigh = memory("s", "\uD83D\uDE00", "x")
                .setThreadId("t")
                .setCreatedAt(T0.plusSeconds(60))
                .build();
        Memory late = memory("s", "n", "x")
                .setThreadId("t")
                .setCreatedAt(T0.plusSeconds(120))
                .build();
        for (Memory m : List.of(early, tieLow, tieHigh, late)) {
            index.upsert(m, TestVectors.randomUnit(random, DIMS));
        }
        // U+1F600 is after U+FFFD in UTF-8 (the index's order) but before it in UTF-16 (String.compareTo)
        assertThat(index.threadNeighbours("s", List.of(early, late)))
                .containsEntry("m", new ThreadNeighbours(null, "\uFFFD"))
                .containsEntry("n", new ThreadNeighbours("\uD83D\uDE00", null))
                .isEqualTo(index.threadNeighboursBySearch("s", List.of(early, late)));
    }
}
