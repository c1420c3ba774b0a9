package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.time.Instant;
import java.util.List;

/** Memory snapshots for index tests: ACTIVE, version 1, importance 3, no scope, no category unless set. */
final class TestMemories {

    static final Instant T0 = Instant.parse("2025-07-01T00:00:00Z");

    private TestMemories() {}

    static Memory.Builder memory(String space, String id, String content) {
        return Memory.newBuilder()
                .setId(id)
                .setSpace(space)
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setContent(content)
                .setTags(List.of())
                .setImportance(3)
                .setCreatedAt(T0)
                .setUpdatedAt(T0)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("0".repeat(64));
    }

    static Memory active(String space, String id, String content) {
        return memory(space, id, content).build();
    }
}
