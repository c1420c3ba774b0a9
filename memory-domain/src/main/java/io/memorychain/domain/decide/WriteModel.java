package io.memorychain.domain.decide;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;
import java.util.List;

/** The sequencer's view of current state, enough to validate requests. */
public interface WriteModel {

    /** The current snapshot of a memory of the space, or null. */
    Memory memory(String space, String id);

    /** Id of the active block with that label, or null. */
    String activeBlock(String space, String label);

    /** Type of the relation edge from {@code fromId} to {@code toId}, or null when there is none. */
    String relation(String space, String fromId, String toId);

    /** A proposal of the space (docs/architecture.md §10), whatever its status, or null. */
    Proposal proposal(String space, String id);
    /** Every memory of the space, whatever its state, in id (creation) order. */
    List<Memory> memories(String space);

    /** A reflection of the space (docs/architecture.md §18), whatever its status, or null. */
    Reflection reflection(String space, String id);

    /** A Mechanic's Exception grant of the space (docs/architecture.md §13), whatever its status, or null. */
    Grant grant(String space, String id);

    /** The space's profile, consent requests and alerts (docs/architecture.md §21), or null when it has none. */
    SpaceGovernance governance(String space);

    /** The space's open refinement session, or null. */
    RefinementSession openRefinement(String space);
}
