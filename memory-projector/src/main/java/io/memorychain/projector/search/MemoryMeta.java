package io.memorychain.projector.search;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.time.Instant;

/**
 * The fields of the indexed version of a memory that filtering and reranking need (importance, pinned, recency, kind
 * for decay weights). {@code category} is null for uncategorized memories.
 */
public record MemoryMeta(
        String space,
        int version,
        MemoryState state,
        MemoryKind kind,
        Tier tier,
        String category,
        int importance,
        boolean pinned,
        Instant createdAt,
        Instant updatedAt) {}
