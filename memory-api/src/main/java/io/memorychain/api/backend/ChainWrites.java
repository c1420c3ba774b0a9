package io.memorychain.api.backend;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import java.util.concurrent.CompletableFuture;

/**
 * How a feature changes memory: requests published to the sequencer, and the off-chain access and operational records
 * beside them. A port of the running chain ({@link MemoryBackend}); a feature asks for the narrowest it needs.
 */
public interface ChainWrites {

    /** Publishes the request; completes with the sequencer's outcome (see {@code MemoryPublisher#publish}). */
    CompletableFuture<MemoryOutcome> publish(MemoryRequest request);

    /** Publishes a read access (asynchronously, off the chain); it feeds the access stats behind decay. */
    void recordAccess(MemoryAccess access);

    /**
     * Publishes an operational event (asynchronously, off the chain, to memory.ops.v1: docs/architecture.md §2); losing
     * one only weakens the counts. Default: dropped.
     */
    default void recordOp(OperationalEvent op) {}
}
