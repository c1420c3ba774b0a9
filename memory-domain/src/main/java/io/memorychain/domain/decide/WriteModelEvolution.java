package io.memorychain.domain.decide;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.Grants;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.Reflections;
import io.memorychain.domain.governance.Governance;
import io.memorychain.domain.refinement.RefinementState;
import java.util.List;

/**
 * {@code evolve(writeModel, event)}: what one chain event changes in the state the deciders read (memories, active
 * blocks, relation edges, proposals, the open refinement session). The sequencer applies it to its RocksDB stores as it
 * appends; tests and replays apply it to an {@link InMemoryWriteModel}.
 */
public final class WriteModelEvolution {

    private WriteModelEvolution() {}

    /** Applies the event; returns the memory snapshots it changed. */
    public static List<Evolver.Change> apply(MemoryEvent event, WriteModelStore model) {
        String space = event.getSpace();
        List<Evolver.Change> changes = Evolver.evolve(event, id -> model.memory(space, id));
        for (Evolver.Change change : changes) {
            model.putMemory(space, change.after());
        }
        for (Evolver.BlockHead block : Evolver.blockHeads(changes)) {
            model.putActiveBlock(space, block.label(), block.memoryId());
        }
        Evolver.edge(event).ifPresent(edge -> {
            if (edge.linked()) {
                model.putRelation(space, edge.fromId(), edge.toId(), edge.type());
            } else {
                model.deleteRelation(space, edge.fromId(), edge.toId());
            }
        });
        Proposal proposal = Proposals.evolve(event, id -> model.proposal(space, id));
        if (proposal != null) {
            model.putProposal(space, proposal);
        }
        Reflection reflection = Reflections.evolve(event, id -> model.reflection(space, id));
        if (reflection != null) {
            model.putReflection(space, reflection);
        }
        Grant grant = Grants.evolve(event, id -> model.grant(space, id));
        if (grant != null) {
            model.putGrant(space, grant);
        }
        SpaceGovernance governance = Governance.evolve(model.governance(space), event);
        if (governance != null) {
            model.putGovernance(space, governance);
        }
        RefinementSession open = model.openRefinement(space);
        RefinementSession session = RefinementState.evolve(open, event);
        if (session != open) {
            model.putOpenRefinement(space, session.getCompletedSeq() != null ? null : session);
        }
        return changes;
    }
}
