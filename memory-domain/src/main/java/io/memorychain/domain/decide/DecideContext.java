package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.RejectionCode.VERSION_CONFLICT;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.Purges;
import java.time.Instant;

/**
 * A request being decided, at its seq and the time it carries (decidedAt: never the clock), against the write model:
 * the lookups the deciders share.
 */
record DecideContext(MemoryRequest request, long seq, WriteModel model, Instant decidedAt) {

    /** A memory found, or the rejection that says why not. */
    record Lookup(Memory memory, Decision rejection) {}

    String space() {
        return request.getSpace();
    }

    /** The memory, or NOT_FOUND / VERSION_CONFLICT. */
    Lookup existing(String id) {
        Memory m = isBlank(id) ? null : model.memory(space(), id);
        if (m == null) {
            return new Lookup(null, reject(NOT_FOUND, "no memory " + id + " in space " + space()));
        }
        if (Purges.isPurged(m)) {
            return new Lookup(null, reject(INVALID_STATE, "memory " + id + " was purged"));
        }
        Integer expected = request.getOp() instanceof ConsolidateMemories ? null : request.getExpectedVersion();
        if (expected != null && expected != m.getVersion()) {
            return new Lookup(
                    null,
                    reject(
                            VERSION_CONFLICT,
                            "memory " + id + " is at version " + m.getVersion() + ", expected " + expected));
        }
        return new Lookup(m, null);
    }

    /** The memory if it exists and is active; otherwise the rejection. */
    Lookup active(String id) {
        Lookup found = existing(id);
        if (found.rejection() == null && found.memory().getState() != MemoryState.ACTIVE) {
            return new Lookup(null, reject(INVALID_STATE, "memory " + id + " is " + stateName(found.memory())));
        }
        return found;
    }

    static String stateName(Memory m) {
        return m.getState().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static boolean isBlank(String s) {
        return Decider.isBlank(s);
    }
}
