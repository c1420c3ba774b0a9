package io.memorychain.jobs.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryProtected;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.Tier;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpaceMemoriesTest {

    @TempDir
    Path dir;

    private ConsolidateStore store;

    @BeforeEach
    void open() {
        store = ConsolidateStore.open(dir.resolve("state"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private static Memory memory(String id, int version, String content, String hash, Instant at) {
        return Memory.newBuilder()
                .setId(id)
                .setSpace("s")
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(null)
                .setContent(content)
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
                .setUpdatedAt(at)
                .setVersion(version)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash(hash)
                .build();
    }

    private static MemoryEvent event(long seq, Instant at, Object payload) {
        return MemoryEvent.newBuilder()
                .setSpace("s")
                .setSeq(seq)
                .setPrevHash(ByteBuffer.allocate(0))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("k")
                .setRequestId("r" + seq)
                .setActor(new Actor(ActorType.AGENT, "a"))
                .setOccurredAt(at)
                .setSessionId(null)
                .setPayload(payload)
                .build();
    }

    private static MemoryEmbedding embedding(String id, String hash, String model) {
        return new MemoryEmbedding("s", id, 1L, hash, model, List.of(1f, 0f));
    }

    @Test
    void usesOnlyVectorsOfTheConfiguredModelAndOfTheCurrentContent() {
        SpaceMemories space = new SpaceMemories("s", "model-a", store);
        Memory v1 = memory("m1", 1, "Alice likes tea.", "h1", T0);
        space.onEvent(event(1, T0, new MemoryCreated(v1)));
        assertThat(space.onEmbedding(embedding("m1", "h1", "model-b"), true)).isFalse();
        assertThat(space.items())
                .singleElement()
                .satisfies(i -> assertThat(i.vector()).isNull());

        assertThat(space.onEmbedding(embedding("m1", "h1", "model-a"), true)).isTrue();
        assertThat(space.items()).singleElement().satisfies(i -> {
            assertThat(i.vector()).containsExactly(1f, 0f);
            assertThat(i.mergeable()).isTrue();
        });

        Instant t1 = T0.plusSeconds(60);
        space.onEvent(event(2, t1, new MemoryUpdated(v1, memory("m1", 2, "Alice likes green tea.", "h2", t1))));
        assertThat(space.items()).singleElement().satisfies(i -> {
            assertThat(i.version()).isEqualTo(2);
            assertThat(i.vector()).as("stale: embedded content h1").isNull();
        });
        assertThat(space.chainTime()).isEqualTo(t1);

        space.onEmbedding(embedding("m1", "h2", "model-a"), true);
        space.onEvent(event(3, t1.plusSeconds(1), new MemoryProtected("m1")));
        assertThat(space.items()).singleElement().satisfies(i -> {
            assertThat(i.constitutional()).isTrue();
            assertThat(i.mergeable()).isFalse();
        });
    }

    @Test
    void aVectorReadBeforeItsEventWaitsForItAndOneOfReplacedContentIsNotUsed() {
        SpaceMemories space = new SpaceMemories("s", "model-a", store);
        Memory v1 = memory("m1", 1, "Alice likes tea.", "h1", T0);
        space.onEvent(event(1, T0, new MemoryCreated(v1)));
        space.onEmbedding(new MemoryEmbedding("s", "m1", 2L, "h2", "model-a", List.of(0f, 1f)), true);
        assertThat(space.items())
                .singleElement()
                .satisfies(i -> assertThat(i.vector()).as("h2 not seen yet").isNull());

        Instant t1 = T0.plusSeconds(60);
        space.onEvent(event(2, t1, new MemoryUpdated(v1, memory("m1", 2, "Alice likes green tea.", "h2", t1))));
        assertThat(space.items())
                .singleElement()
                .satisfies(i -> assertThat(i.vector()).containsExactly(0f, 1f));

        space.onEmbedding(new MemoryEmbedding("s", "m1", 1L, "h1", "model-a", List.of(1f, 0f)), true);
        assertThat(space.items())
                .singleElement()
                .satisfies(i -> assertThat(i.vector()).containsExactly(0f, 1f));
        assertThat(space.embeddedSeq()).isEqualTo(2L);
    }
}
