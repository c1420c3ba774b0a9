package io.memorychain.api.write;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;

/** An accepted write, applied to the local views: the memory after it, and the outcome (seq, ids, version). */
public record WriteResult(Memory memory, MemoryOutcome outcome) {

    public long seq() {
        return outcome.getSeq();
    }
}
