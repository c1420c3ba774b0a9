package io.memorychain.jobs.consolidate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsolidateStoreTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    private static Memory memory(String space, String id) {
        return Memory.newBuilder()
                .setId(id)
                .setSpace(space)
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(null)
                .setContent("text of " + id)
                .setSummary(null)
                .setTags(List.of())
                .setImportance(3)
                .setConfidence(Confidence.MEDIUM)
                .setSource(null)
                .setUserId(null)
                .setAgentId(null)
                .setRunId(null)
                .setActorId(null)
                .setThreadId(null)
                .setRole(null)
                .setCreatedAt(T0)
                .setUpdatedAt(T0)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash("h-" + id)
                .build();
    }

    private static List<String> ids(ConsolidateStore store, String space) {
        List<String> ids = new ArrayList<>();
        store.forEachMemory(space, s -> ids.add(s.memory().getId()));
        return ids;
    }

    @Test
    void keepsEachSpacesMemoriesApartEvenWhenTheirNamesRunTogether() {
        try (ConsolidateStore store = ConsolidateStore.open(dir.resolve("state"))) {
            store.put("a", memory("a", "bc"), 1);
            store.put("ab", memory("ab", "c"), 2);
            assertThat(ids(store, "a")).containsExactly("bc");
            assertThat(ids(store, "ab")).containsExactly("c");
            assertThat(store.memory("ab", "c").contentSeq()).isEqualTo(2);
            assertThat(store.memory("a", "c")).isNull();
        }
    }

    @Test
    void dropsOnlyTheVectorsOfEarlierContentAndRoundTripsTheirValues() {
        try (ConsolidateStore store = ConsolidateStore.open(dir.resolve("state"))) {
            assertThat(store.put("s", "m1", "h1", new ConsolidateStore.Vector(1, new float[] {0.25f, -1f}, false)))
                    .isTrue();
            assertThat(store.put("s", "m1", "h1", new ConsolidateStore.Vector(1, new float[] {0.25f, -1f}, true)))
                    .as("the same content's vector read again replaces it")
                    .isFalse();
            store.put("s", "m1", "h2", new ConsolidateStore.Vector(5, new float[] {1f, 0f}, false));
            store.put("s", "m10", "h1", new ConsolidateStore.Vector(1, new float[] {1f, 0f}, false));

            assertThat(store.removeVectorsBefore("s", "m1", 5)).isEqualTo(1);
            assertThat(store.vector("s", "m1", "h1")).isNull();
            assertThat(store.vector("s", "m1", "h2").values()).containsExactly(1f, 0f);
            assertThat(store.vector("s", "m10", "h1"))
                    .as("another memory's vector")
                    .isNotNull();
        }
    }

    @Test
    void releasesEachHeldRecordOnceWithItsLivenessAndKeepsSpacesApart() {
        try (ConsolidateStore store = ConsolidateStore.open(dir.resolve("state"))) {
            store.hold("a", 0, new byte[] {1, 2}, true);
            store.hold("a", 1, new byte[] {3}, false);
            store.hold("ab", 0, new byte[] {4}, false);

            ConsolidateStore.Held first = store.release("a", 0);
            assertThat(first.record()).containsExactly(1, 2);
            assertThat(first.live()).isTrue();
            assertThat(store.release("a", 0)).as("released once").isNull();
            assertThat(store.release("ab", 0).record())
                    .as("another space's first record")
                    .containsExactly(4);
            ConsolidateStore.Held second = store.release("a", 1);
            assertThat(second.record()).containsExactly(3);
            assertThat(second.live()).isFalse();
        }
    }

    @Test
    void aSecondStoreOnTheSameDirectoryFailsNamingItAndLeavesTheFirstOnesDataAlone() {
        Path state = dir.resolve("state");
        try (ConsolidateStore first = ConsolidateStore.open(state)) {
            first.put("s", memory("s", "m1"), 1);
            assertThatThrownBy(() -> ConsolidateStore.open(dir.resolve("other/../state")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(state.toString())
                    .hasMessageContaining("in use");
            assertThat(ids(first, "s")).containsExactly("m1");
        }
        try (ConsolidateStore next = ConsolidateStore.open(state)) {
            assertThat(ids(next, "s")).as("opened once the first closed").isEmpty();
        }
    }

    @Test
    void startsEmptyAndLeavesNothingBehind() {
        Path state = dir.resolve("state");
        try (ConsolidateStore store = ConsolidateStore.open(state)) {
            store.put("s", memory("s", "m1"), 1);
            store.clear();
            assertThat(ids(store, "s")).isEmpty();
            store.put("s", memory("s", "m2"), 2);
        }
        assertThat(state).doesNotExist();
        try (ConsolidateStore reopened = ConsolidateStore.open(state)) {
            assertThat(ids(reopened, "s")).isEmpty();
            assertThat(Files.isDirectory(state)).isTrue();
        }
    }
}
