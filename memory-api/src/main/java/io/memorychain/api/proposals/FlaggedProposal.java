package io.memorychain.api.proposals;

import io.memorychain.avro.view.Proposal;
import io.memorychain.projector.proposal.ProposalFlag;
import java.util.List;

/**
 * A proposal with the conflicts and duplicates flagged for it when it was read (open proposals only; a resolved one has
 * none).
 */
public record FlaggedProposal(Proposal proposal, List<ProposalFlag> flags) {

    public FlaggedProposal {
        flags = List.copyOf(flags);
    }

    /** Whether any flag is a conflict (the seed's "⚠️ CONFLICT" status). */
    public boolean conflicted() {
        return flags.stream().anyMatch(f -> f.kind() == ProposalFlag.Kind.CONFLICT);
    }
}
