package io.memorychain.projector.retrieval;

import io.memorychain.avro.MemoryAccess;

/**
 * Records which memories a read returned ({@code memory.access.v1}), off the chain; the projection aggregates the
 * records into the access stats that feed decay. Must not block the read path; losing a record only weakens decay.
 */
@FunctionalInterface
public interface AccessRecorder {

    AccessRecorder NONE = access -> {};

    void record(MemoryAccess access);
}
