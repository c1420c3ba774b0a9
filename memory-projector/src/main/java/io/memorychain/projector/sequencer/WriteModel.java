package io.memorychain.projector.sequencer;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.Proposal;

/** The sequencer's view of current state, enough to validate requests. */
public interface WriteModel {

    /** The current snapshot of a memory of the space, or null. */
    Memory memory(String space, String id);

    /** Id of the active block with that label, or null. */
    String activeBlock(String space, String label);

    /** Type of the relation edge from {@code fromId} to {@code toId}, or null when there is none. */
    String relation(String space, String fromId, String toId);

    /** A proposal of the space (seed 001 section 13), whatever its status, or null. */
    Proposal proposal(String space, String id);
}
