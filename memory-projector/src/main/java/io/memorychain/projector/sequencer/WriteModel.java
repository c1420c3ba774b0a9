package io.memorychain.projector.sequencer;

import io.memorychain.avro.Memory;

/** The sequencer's view of current state, enough to validate requests. */
public interface WriteModel {

    /** The current snapshot of a memory of the space, or null. */
    Memory memory(String space, String id);

    /** Id of the active block with that label, or null. */
    String activeBlock(String space, String label);

    /** Type of the relation edge from {@code fromId} to {@code toId}, or null when there is none. */
    String relation(String space, String fromId, String toId);
}
