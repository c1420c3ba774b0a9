package io.memorychain.api.proposals;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.projector.proposal.ProposalConflicts;
import io.memorychain.projector.proposal.ProposalFlag;
import io.memorychain.projector.view.MemoryViews;
import java.util.List;
import java.util.Map;

/**
 * Sub-agent proposals (docs/architecture.md §10) over the chain: sub-agents propose ({@code memory_propose}), the main
 * agent, a user or an admin commits, rejects or defers ({@code proposals_review}); open proposals are read with
 * conflict and duplicate flags ({@link ProposalConflicts}). Who may do what is the sequencer's rule (a sub-agent
 * writing directly, or reviewing, is FORBIDDEN); this class validates input before anything is published, writes
 * through the {@link WriteExecutor} (read-your-writes) and applies category allowlists to reads. Transport-neutral:
 * REST uses it, MCP and gRPC tools can use it as is.
 */
public class ProposalService {

    /** Most flagged ids recorded with a resolution (the sequencer's limit). */
    static final int MAX_RECORDED_CONFLICTS = 20;
    /** The source of a memory committed from a proposal: {@code proposal:ID}. */
    private static final String PROPOSAL_SOURCE = "proposal:";

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final CategoryAccess access;
    private final ProposalRequests requests;
    private final ProposalConflicts conflicts;

    /** @param conflicts null: no flags (no embedding model) */
    public ProposalService(
            ChainReads backend,
            WriteExecutor writes,
            CategoryAccess access,
            ProposalRequests requests,
            ProposalConflicts conflicts) {
        this.backend = backend;
        this.writes = writes;
        this.access = access;
        this.requests = requests;
        this.conflicts = conflicts;
    }

    /**
     * The conflict rule open proposals are flagged with (the conflict band of {@code memory.proposals}), shared with
     * contradiction detection so that both use one similarity rule and one embedding cache; empty without an embedding
     * model.
     */
    public java.util.Optional<ProposalConflicts> conflicts() {
        return java.util.Optional.ofNullable(conflicts);
    }

    /** memory_propose: a new pending proposal (the actor must be a sub-agent, an agent or a worker), with its flags. */
    public ProposalResult propose(WriteContext ctx, ProposalDraft draft) {
        MemoryOutcome outcome = writes.apply(ctx, requests.submit(draft));
        // review mode auto_commit: the outcome names the committed memory, whose source names the proposal
        Memory committed = outcome.getMemoryId().startsWith("p")
                ? null
                : backend.views().memory(ctx.space(), outcome.getMemoryId()).orElse(null);
        String proposalId = committed != null
                        && committed.getSource() != null
                        && committed.getSource().startsWith(PROPOSAL_SOURCE)
                ? committed.getSource().substring(PROPOSAL_SOURCE.length())
                : outcome.getMemoryId();
        Proposal proposal = readBack(ctx, proposalId, outcome);
        return new ProposalResult(flagged(ctx.space(), ctx.actor(), proposal), committed, outcome.getSeq());
    }

    /** The space's open (pending and deferred) proposals the reader may see, oldest first, with their flags. */
    public List<FlaggedProposal> open(String space, Actor reader) {
        MemoryViews views = backend.views();
        List<Proposal> open = visible(reader, views.openProposals(space));
        if (conflicts == null) {
            return open.stream().map(p -> new FlaggedProposal(p, List.of())).toList();
        }
        Map<String, List<ProposalFlag>> flags = conflicts.flags(views, space, open, access, reader);
        return open.stream()
                .map(p -> new FlaggedProposal(p, flags.get(p.getId())))
                .toList();
    }

    /**
     * One proposal, whatever its status (flags while it is open): 404 NOT_FOUND for unknown ids, 403
     * CATEGORY_NOT_ALLOWED for a category outside the reader's allowlist.
     */
    public FlaggedProposal get(String space, Actor reader, String id) {
        Proposal proposal = find(space, id);
        String category = proposal.getProposal().getCategory();
        if (!access.allows(reader, category)) {
            throw new ApiException(
                    ErrorCodes.CATEGORY_NOT_ALLOWED, "proposal " + id + ": " + access.notAllowed(reader, category));
        }
        return flagged(space, reader, proposal);
    }

    /**
     * proposals_review: commit (to memory, with the review's overrides), reject or defer (stays open) an open proposal.
     * The conflicts flagged for it now are recorded with the resolution. A committed or rejected proposal is 409
     * ALREADY_RESOLVED; sub-agents and workers are 403 FORBIDDEN.
     */
    public ProposalResult review(WriteContext ctx, String id, ProposalDecision decision, ProposalReview review) {
        requirePlausible(ctx.space(), id);
        List<String> conflicting = recordedConflicts(ctx, id);
        ProposalReview r = review == null ? ProposalReview.NONE : review;
        WriteContext write = ctx.expectedVersion() != null
                ? ctx
                : ctx.expecting(ExpectedVersions.resolve(r.expectedVersion(), null));
        MemoryOutcome outcome = writes.apply(write, requests.resolve(id, decision, r, conflicting));
        Memory memory = null;
        if (decision == ProposalDecision.COMMIT) {
            memory = backend.views()
                    .memory(ctx.space(), outcome.getMemoryId())
                    .orElseThrow(() -> new ApiException(
                            ErrorCodes.INTERNAL,
                            "Committed as seq " + outcome.getSeq() + " but memory " + outcome.getMemoryId()
                                    + " cannot be read back; see the server log",
                            outcome.getRequestId()));
        }
        Proposal proposal = readBack(ctx, id, outcome);
        return new ProposalResult(flagged(ctx.space(), ctx.actor(), proposal), memory, outcome.getSeq());
    }

    public ProposalResult commit(WriteContext ctx, String id, ProposalReview review) {
        return review(ctx, id, ProposalDecision.COMMIT, review);
    }

    public ProposalResult reject(WriteContext ctx, String id, String reason) {
        return review(ctx, id, ProposalDecision.REJECT, ProposalReview.because(reason));
    }

    public ProposalResult defer(WriteContext ctx, String id, String reason) {
        return review(ctx, id, ProposalDecision.DEFER, ProposalReview.because(reason));
    }

    /** The conflicting ids of the proposal as this instance sees it now (none when it is not open here). */
    private List<String> recordedConflicts(WriteContext ctx, String id) {
        if (conflicts == null) {
            return List.of();
        }
        MemoryViews views = backend.views();
        Proposal proposal =
                views.proposal(ctx.space(), id).filter(Proposals::isOpen).orElse(null);
        if (proposal == null
                || !access.allows(ctx.actor(), proposal.getProposal().getCategory())) {
            return List.of(); // the sequencer answers NOT_FOUND, ALREADY_RESOLVED or CATEGORY_NOT_ALLOWED
        }
        return conflicts
                .flagsOf(views, ctx.space(), proposal, views.openProposals(ctx.space()), access, ctx.actor())
                .stream()
                .filter(f -> f.kind() == ProposalFlag.Kind.CONFLICT)
                .map(ProposalFlag::id)
                .limit(MAX_RECORDED_CONFLICTS)
                .toList();
    }

    private FlaggedProposal flagged(String space, Actor reader, Proposal proposal) {
        if (conflicts == null || !Proposals.isOpen(proposal)) {
            return new FlaggedProposal(proposal, List.of());
        }
        MemoryViews views = backend.views();
        return new FlaggedProposal(
                proposal,
                conflicts.flagsOf(views, space, proposal, visible(reader, views.openProposals(space)), access, reader));
    }

    private List<Proposal> visible(Actor reader, List<Proposal> proposals) {
        return proposals.stream()
                .filter(p -> access.allows(reader, p.getProposal().getCategory()))
                .toList();
    }

    private Proposal find(String space, String id) {
        requirePlausible(space, id);
        return backend.views()
                .proposal(space, id)
                .orElseThrow(
                        () -> ApiException.notFound("No proposal '" + Texts.abbreviate(id) + "' in space " + space));
    }

    private static void requirePlausible(String space, String id) {
        if (!PathIds.plausible(id)) {
            throw ApiException.notFound("No proposal '" + Texts.abbreviate(id) + "' in space " + space);
        }
    }

    private Proposal readBack(WriteContext ctx, String id, MemoryOutcome outcome) {
        return backend.views()
                .proposal(ctx.space(), id)
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.INTERNAL,
                        "Accepted as seq " + outcome.getSeq() + " but proposal " + id
                                + " cannot be read back; see the server log",
                        outcome.getRequestId()));
    }
}
