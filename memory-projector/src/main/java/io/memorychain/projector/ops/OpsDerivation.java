package io.memorychain.projector.ops;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.OperationalEvent;
import java.util.Optional;

/**
 * The operational event of one chain event (seed 004 section 14, docs/architecture.md §2): a pure function of the
 * event, so a replay derives the same records. Status is always ok (the chain holds only accepted changes; refused
 * writes are recorded by the API). Node: {@value #WORKER} for a worker's request, {@value #EPISODIC} for episodic
 * memories, {@value #API} otherwise. Events that are not memory operations (sessions, proposals, reflections, rollback
 * headers, flags) derive none.
 */
public final class OpsDerivation {

    public static final String WORKER = "worker";
    public static final String EPISODIC = "episodic";
    public static final String API = "api";
    public static final String HOTPATH = "hotpath";
    public static final String CONTEXT = "context";
    public static final String OK = "ok";
    public static final String ERROR = "error";
    public static final String SKIPPED = "skipped";

    private OpsDerivation() {}

    public static Optional<OperationalEvent> of(MemoryEvent event) {
        Object p = event.getPayload();
        if (p instanceof MemoryCreated c) {
            return op(event, "create", c.getMemory(), c.getMemory().getId());
        } else if (p instanceof MemoryUpdated u) {
            return op(event, "update", u.getAfter(), u.getAfter().getId());
        } else if (p instanceof MemoriesConsolidated c) {
            return op(event, "merge", c.getCreated(), c.getCreated().getId());
        } else if (p instanceof MemoryDeleted d) {
            return op(event, "delete", null, d.getMemoryId());
        } else if (p instanceof DuplicatesRemoved d) {
            return op(
                    event,
                    "delete",
                    null,
                    d.getRemoved().isEmpty() ? null : d.getRemoved().get(0).getMemoryId());
        } else if (p instanceof MemoryRestored r) {
            return op(event, "restore", null, r.getMemoryId());
        } else if (p instanceof MemoriesLinked l) {
            return op(event, "link", null, l.getFromId());
        } else if (p instanceof MemoriesUnlinked u) {
            return op(event, "unlink", null, u.getFromId());
        } else if (p instanceof MemoryExpired x) {
            return op(event, "ttl", null, x.getMemoryId());
        } else if (p instanceof MemoryPurged x) {
            return op(event, "purge", null, x.getMemoryId());
        } else if (p instanceof io.memorychain.avro.MemoryErased x) {
            return op(event, "erase", null, x.getMemoryId());
        } else if (p instanceof DecayTransitioned d) {
            return op(event, "decay", null, d.getMemoryId());
        } else if (p instanceof BlockUpdated b) {
            return op(event, "block", b.getMemory(), b.getMemory().getId());
        }
        return Optional.empty();
    }

    /** The op name of a request's operation (for refused writes), in the vocabulary of {@link #of}. */
    public static String opOf(Object requestOp) {
        String name = requestOp == null ? "unknown" : requestOp.getClass().getSimpleName();
        return switch (name) {
            case "CreateMemory" -> "create";
            case "UpdateMemory" -> "update";
            case "ConsolidateMemories" -> "merge";
            case "DeleteMemory" -> "delete";
            case "RestoreMemory" -> "restore";
            case "LinkMemories" -> "link";
            case "UnlinkMemories" -> "unlink";
            case "ExpireMemory" -> "ttl";
            case "PurgeMemory" -> "purge";
            case "EraseMemory" -> "erase";
            case "TransitionDecay" -> "decay";
            case "UpdateBlock" -> "block";
            default -> Character.toLowerCase(name.charAt(0)) + name.substring(1);
        };
    }

    private static Optional<OperationalEvent> op(MemoryEvent event, String op, Memory memory, String memoryId) {
        String node = event.getActor().getType() == ActorType.WORKER
                ? WORKER
                : memory != null && memory.getKind() == MemoryKind.EPISODIC ? EPISODIC : API;
        return Optional.of(OperationalEvent.newBuilder()
                .setSpace(event.getSpace())
                .setActor(event.getActor())
                .setUserId(memory == null ? null : memory.getUserId())
                .setThreadId(memory == null ? null : memory.getThreadId())
                .setNode(node)
                .setOp(op)
                .setStatus(OK)
                .setCode(null)
                .setMemoryId(memoryId)
                .setCategory(memory == null ? null : memory.getCategory())
                .setSim(null)
                .setSeq(event.getSeq())
                .setTs(event.getOccurredAt())
                .build());
    }
}
