package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The set's memories as the projection would hold them after replaying their events: id = key; consolidation inputs
 * SUPERSEDED (version 2, {@code superseded_by} the result, updated when the consolidation happened); consolidation
 * results ACTIVE with {@code supersedes} and the earliest {@code created_at} of their inputs; {@code updated_at} =
 * reference time minus {@code days_ago}.
 */
public final class AvroMemories {

    private AvroMemories() {}

    public static List<Memory> of(RetrievalSet set) {
        Map<String, LabelledMemory> byKey = set.memoriesByKey();
        return set.memories().stream().map(m -> toAvro(set, byKey, m)).toList();
    }

    private static Memory toAvro(RetrievalSet set, Map<String, LabelledMemory> byKey, LabelledMemory m) {
        Instant reference = set.referenceTime();
        Instant written = m.writtenAt(reference);
        Memory.Builder b = Memory.newBuilder()
                .setId(m.key())
                .setSpace(m.space())
                .setKind(m.kind())
                .setTier(Tier.WORKING)
                .setCategory(m.category())
                .setContent(m.content())
                .setTags(m.tags())
                .setImportance(m.importance())
                .setUserId(m.userId())
                .setAgentId(m.agentId())
                .setRunId(m.runId())
                .setActorId(m.actorId())
                .setRole(m.role())
                .setThreadId(m.threadId())
                .setPinned(m.pinned())
                .setCreatedAt(written)
                .setUpdatedAt(written)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash(sha256(m.content()));
        Optional<Consolidation> supersededBy = set.supersededBy(m.key());
        if (supersededBy.isPresent()) {
            Consolidation c = supersededBy.get();
            b.setState(MemoryState.SUPERSEDED)
                    .setSupersededBy(c.result())
                    .setVersion(2)
                    .setUpdatedAt(byKey.get(c.result()).writtenAt(reference));
        }
        set.consolidationOf(m.key())
                .ifPresent(c -> b.setSupersedes(c.inputs())
                        .setCreatedAt(c.inputs().stream()
                                .map(input -> byKey.get(input).writtenAt(reference))
                                .min(Instant::compareTo)
                                .orElse(written)));
        return b.build();
    }

    private static String sha256(String content) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }
}
