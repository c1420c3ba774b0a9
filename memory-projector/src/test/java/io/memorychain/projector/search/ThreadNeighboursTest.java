package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.T0;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The memories just before and after a memory in its thread, as the index finds them for thread context. */
class ThreadNeighboursTest {

    private static final int DIMS = 8;
    private final MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));
    private final Random random = new Random(5);
    private final List<Memory> written = new ArrayList<>();

    @AfterEach
    void close() {
        index.close();
    }

    private Memory add(String space, String id, String thread, int minute, MemoryState state) {
        Memory m = memory(space, id, "turn " + id)
                .setThreadId(thread)
                .setCreatedAt(T0.plusSeconds(60L * minute))
                .setState(state)
                .build();
        index.upsert(m, TestVectors.randomUnit(random, DIMS));
        written.add(m);
        return m;
    }

    @Test
    void findsTheNearestEarlierAndLaterActiveMemoryOfTheSameThreadAndSpace() {
        Memory first = add("s", "a1", "t", 1, MemoryState.ACTIVE);
        add("s", "x", "other-thread", 2, MemoryState.ACTIVE);
        Memory middle = add("s", "a2", "t", 3, MemoryState.ACTIVE);
        add("s", "gone", "t", 4, MemoryState.SOFT_DELETED);
        add("elsewhere", "e", "t", 5, MemoryState.ACTIVE);
        Memory last = add("s", "a3", "t", 6, MemoryState.ACTIVE);
        Memory loose = memory("s", "loose", "no thread").build();
        index.upsert(loose, TestVectors.randomUnit(random, DIMS));

        Map<String, ThreadNeighbours> found = index.threadNeighbours("s", List.of(first, middle, last, loose));

        assertThat(found)
                .containsEntry("a1", new ThreadNeighbours(null, "a2"))
                .containsEntry("a2", new ThreadNeighbours("a1", "a3"))
                .containsEntry("a3", new ThreadNeighbours("a2", null))
                .doesNotContainKey("loose");
    }

    @Test
    void isTheSameAfterARebuildFromTheSameMemories() {
        Memory a = add("s", "a", "t", 1, MemoryState.ACTIVE);
        Memory b = add("s", "b", "t", 2, MemoryState.ACTIVE);
        Memory c = add("s", "c", "t", 3, MemoryState.ACTIVE);
        Map<String, ThreadNeighbours> live = index.threadNeighbours("s", List.of(a, b, c));
        List<Memory> reversed = new ArrayList<>(written);
        Collections.reverse(reversed);
        index.rebuild(reversed.stream()
                .map(m -> new IndexEntry(m, TestVectors.randomUnit(random, DIMS)))
                .iterator());
        assertThat(index.threadNeighbours("s", List.of(a, b, c)))
                .isEqualTo(live)
                .containsEntry("b", new ThreadNeighbours("a", "c"));
    }
}
