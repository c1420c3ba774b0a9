package io.memorychain.api.proposals;

import io.memorychain.api.memories.MemoryJson;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The answer of an accepted proposal write: the proposal after it, the committed memory (commit only), the seq. */
@Serdeable
@Schema(name = "ProposalWriteResult")
public record ProposalWriteJson(
        ProposalJson proposal,
        /* commit: the new memory (actor commit-from:PROPOSER) */ @Nullable
        MemoryJson memory,

        @Schema(description = "Chain position of the (last) event")
        long seq) {

    public static ProposalWriteJson of(ProposalResult result) {
        return new ProposalWriteJson(ProposalJson.of(result.proposal()), MemoryJson.of(result.memory()), result.seq());
    }
}
