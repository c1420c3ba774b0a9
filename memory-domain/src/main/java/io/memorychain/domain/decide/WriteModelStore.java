package io.memorychain.domain.decide;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;

/** A {@link WriteModel} that can be changed: where {@link WriteModelEvolution} applies the chain's events. */
public interface WriteModelStore extends WriteModel {

    void putMemory(String space, Memory memory);

    void putActiveBlock(String space, String label, String memoryId);

    void putRelation(String space, String fromId, String toId, String type);

    void deleteRelation(String space, String fromId, String toId);

    void putProposal(String space, Proposal proposal);

    void putReflection(String space, Reflection reflection);

    void putGrant(String space, Grant grant);

    void putGovernance(String space, SpaceGovernance governance);

    /** Sets the space's open refinement session; null: none is open. */
    void putOpenRefinement(String space, RefinementSession session);
}
