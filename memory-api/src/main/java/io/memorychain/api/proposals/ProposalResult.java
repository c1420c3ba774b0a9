package io.memorychain.api.proposals;

import io.memorychain.avro.Memory;

/**
 * An accepted proposal write, applied to the local views.
 *
 * @param proposal the proposal after it (with its flags while it is open)
 * @param memory the memory a commit created; null for a submission, a rejection or a deferral
 * @param seq chain position of the (last) event
 */
public record ProposalResult(FlaggedProposal proposal, Memory memory, long seq) {}
