package io.memorychain.events.testing;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainSealer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds sealed chains of {@code MemoryCreated} events for tests and benchmarks. */
public final class TestChains {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private TestChains() {}

    /** The content of memory {@code seq} of {@code space}: unique, with a recognisable marker for byte-level edits. */
    public static String content(String space, long seq) {
        return "memory " + seq + " of " + space + ": the quick brown fox jumps over the lazy dog";
    }

    /** A sealed chain {@code 1..n} of {@code space}, each event linked to the previous one. */
    public static List<MemoryEvent> sealedChain(ChainSealer sealer, String space, int n) {
        return sealedChain(sealer, space, n, 0);
    }

    /**
     * As {@link #sealedChain(ChainSealer, String, int)}, padding each content with {@code padding} extra characters.
     */
    public static List<MemoryEvent> sealedChain(ChainSealer sealer, String space, int n, int padding) {
        List<MemoryEvent> chain = new ArrayList<>(n);
        byte[] prev = Canonical.GENESIS;
        for (long seq = 1; seq <= n; seq++) {
            String text = content(space, seq) + (padding > 0 ? " " + "x".repeat(padding - 1) : "");
            MemoryEvent event = sealer.seal(event(space, seq, prev, text));
            chain.add(event);
            prev = Canonical.toArray(event.getHash());
        }
        return chain;
    }

    /** An unsealed event (empty hash, signature and key id) creating one memory. */
    public static MemoryEvent event(String space, long seq, byte[] prevHash, String content) {
        Instant at = T0.plusSeconds(seq);
        Memory memory = Memory.newBuilder()
                .setId(space + "-m" + seq)
                .setSpace(space)
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setContent(content)
                .setTags(List.of("test", "chain"))
                .setCreatedAt(at)
                .setUpdatedAt(at)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash(Canonical.hex(Canonical.sha256(content.getBytes(StandardCharsets.UTF_8))))
                .build();
        return MemoryEvent.newBuilder()
                .setSpace(space)
                .setSeq(seq)
                .setPrevHash(ByteBuffer.wrap(prevHash.clone()))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("")
                .setRequestId("req-" + space + "-" + seq)
                .setActor(Actor.newBuilder()
                        .setType(ActorType.AGENT)
                        .setId("agent-" + space)
                        .build())
                .setOccurredAt(at)
                .setPayload(MemoryCreated.newBuilder().setMemory(memory).build())
                .build();
    }

    /** A deep copy, so a test can tamper with one event without touching the original chain. */
    public static MemoryEvent copy(MemoryEvent event) {
        return MemoryEvent.newBuilder(event).build();
    }

    /** The event's memory (the payload of {@code MemoryCreated}). */
    public static Memory memory(MemoryEvent event) {
        return ((MemoryCreated) event.getPayload()).getMemory();
    }
}
