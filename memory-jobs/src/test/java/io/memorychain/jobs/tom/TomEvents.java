package io.memorychain.jobs.tom;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;

/** Chain events for the planner's tests (hashes and signatures empty: the planner never reads them). */
final class TomEvents {

    static final Actor AGENT = new Actor(ActorType.AGENT, "planner");
    static final Actor TOM = new Actor(ActorType.WORKER, "tom");

    private TomEvents() {}

    static MemoryEvent created(
            String space, long seq, Instant at, Actor actor, MemoryKind kind, String thread, String content) {
        Memory memory = Memory.newBuilder()
                .setId("m" + seq)
                .setSpace(space)
                .setKind(kind)
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
                .setThreadId(thread)
                .setRole(null)
                .setCreatedAt(at)
                .setUpdatedAt(at)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash("h" + seq)
                .build();
        return MemoryEvent.newBuilder()
                .setSpace(space)
                .setSeq(seq)
                .setPrevHash(ByteBuffer.allocate(0))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("k")
                .setRequestId("r" + seq)
                .setActor(actor)
                .setOccurredAt(at)
                .setSessionId(null)
                .setPayload(new MemoryCreated(memory))
                .build();
    }

    static MemoryEvent episodic(String space, long seq, Instant at, String thread, String content) {
        return created(space, seq, at, AGENT, MemoryKind.EPISODIC, thread, content);
    }

    static MemoryEvent semantic(String space, long seq, Instant at, String thread, String content) {
        return created(space, seq, at, AGENT, MemoryKind.SEMANTIC, thread, content);
    }
}
