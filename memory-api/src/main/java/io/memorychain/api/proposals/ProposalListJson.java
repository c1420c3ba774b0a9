package io.memorychain.api.proposals;

import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** The open (pending and deferred) proposals of a space, oldest first. */
@Serdeable
public record ProposalListJson(List<ProposalJson> items) {

    public static ProposalListJson of(List<FlaggedProposal> open) {
        return new ProposalListJson(open.stream().map(ProposalJson::of).toList());
    }
}
