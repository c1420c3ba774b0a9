package io.memorychain.domain;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.ProposalStatus;
import java.util.List;
import java.util.function.Function;

/**
 * {@code evolve(proposal, event)} for sub-agent proposals (docs/architecture.md §10): the proposal snapshot a chain
 * event produces. Used by the sequencer (to decide resolutions) and by the projection (the pending-proposals view), so
 * both see the same state. Pure: reads only the event and the prior snapshot.
 */
public final class Proposals {

    private Proposals() {}

    /**
     * @param current looks up the current snapshot of a proposal of the event's space (null when unknown)
     * @return the proposal after the event, or null when the event is not about a proposal
     */
    public static Proposal evolve(MemoryEvent event, Function<String, Proposal> current) {
        Object payload = event.getPayload();
        if (payload instanceof ProposalSubmitted s) {
            return Proposal.newBuilder()
                    .setId(s.getProposalId())
                    .setSpace(event.getSpace())
                    .setProposer(event.getActor())
                    .setProposal(s.getProposal())
                    .setStatus(ProposalStatus.PENDING)
                    .setVersion(1)
                    .setSubmittedSeq(event.getSeq())
                    .setSubmittedAt(event.getOccurredAt())
                    .setUpdatedSeq(event.getSeq())
                    .setResolvedBy(null)
                    .setResolvedAt(null)
                    .setReason(null)
                    .setMemoryId(null)
                    .setConflictsWith(List.of())
                    .setReviewMode(s.getReviewMode())
                    .build();
        }
        if (payload instanceof ProposalResolved r) {
            Proposal before = current.apply(r.getProposalId());
            if (before == null) {
                throw new IllegalStateException("Event " + event.getSpace() + "#" + event.getSeq()
                        + " resolves unknown proposal " + r.getProposalId());
            }
            return Proposal.newBuilder(before)
                    .setStatus(status(r.getDecision()))
                    .setVersion(before.getVersion() + 1)
                    .setUpdatedSeq(event.getSeq())
                    .setResolvedBy(event.getActor())
                    .setResolvedAt(event.getOccurredAt())
                    .setReason(r.getReason())
                    .setMemoryId(r.getMemoryId())
                    .setConflictsWith(List.copyOf(r.getConflictsWith()))
                    .build();
        }
        return null;
    }

    public static ProposalStatus status(ProposalDecision decision) {
        return switch (decision) {
            case COMMIT -> ProposalStatus.COMMITTED;
            case REJECT -> ProposalStatus.REJECTED;
            case DEFER -> ProposalStatus.DEFERRED;
        };
    }

    /** Pending and deferred proposals can still be resolved; committed and rejected ones cannot. */
    public static boolean isOpen(Proposal p) {
        return p.getStatus() == ProposalStatus.PENDING || p.getStatus() == ProposalStatus.DEFERRED;
    }
}
