package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_RESOLVED;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.RejectionCode.VERSION_CONFLICT;
import static io.memorychain.domain.decide.Decider.checkImportance;
import static io.memorychain.domain.decide.Decider.checkLength;
import static io.memorychain.domain.decide.Decider.checkTags;
import static io.memorychain.domain.decide.Decider.firstProblem;
import static io.memorychain.domain.decide.Decider.isBlank;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.ReviewMode;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.ContentHash;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.Rules;
import io.memorychain.domain.review.ReviewPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The rules of sub-agent proposals (docs/architecture.md §10): who may propose and review, what a proposal may hold,
 * and what a resolution writes. A COMMIT is two events of one decision: ProposalResolved by the reviewer, then the
 * memory's MemoryCreated by {@link #committer(Actor, Actor) commit-from:PROPOSER}.
 */
final class ProposalDecider {

    /** Sub-agents propose (it is their only way to write); agents and workers may too. */
    static final Set<ActorType> PROPOSERS = EnumSet.of(ActorType.SUBAGENT, ActorType.AGENT, ActorType.WORKER);
    /** The main agent, the person whose memory it is (docs/architecture.md §10, manual review) and admins. */
    static final Set<ActorType> REVIEWERS = EnumSet.of(ActorType.AGENT, ActorType.USER, ActorType.ADMIN);
    /** Most ids a resolution may record as conflicting. */
    static final int MAX_CONFLICTS = 20;
    /** Actor id prefix of a committed proposal's MemoryCreated event: the seed's {@code bot:commit-from:NAME}. */
    static final String COMMIT_FROM = "commit-from:";
    /** The reviewer of an auto-committed proposal (review mode AUTO_COMMIT): the system, not a person or an agent. */
    public static final Actor AUTO_COMMITTER = new Actor(ActorType.SYSTEM, "auto-commit");

    private final Decider decider;
    private final CategoryGuard categories;
    private final ReviewPolicy reviews;

    ProposalDecider(Decider decider, CategoryGuard categories, ReviewPolicy reviews) {
        this.decider = decider;
        this.categories = categories;
        this.reviews = reviews;
    }

    /**
     * Accepted: ProposalSubmitted with the review mode the configuration gives this proposer in this space; the
     * outcome's memory id is the new proposal's id, its version 1. AUTO_COMMIT (a trusted proposer, confidence at the
     * threshold) appends, in the same decision, the commit by {@link #AUTO_COMMITTER}: ProposalResolved
     * (auto_committed) and the MemoryCreated; the outcome then names the committed memory.
     */
    Decision submit(MemoryRequest request, long seq, Instant now, SubmitProposal op) {
        Actor actor = request.getActor();
        if (!PROPOSERS.contains(actor.getType())) {
            return reject(
                    FORBIDDEN,
                    names(actor) + " cannot propose: sub-agents, agents and workers propose; "
                            + "users and admins write memories directly");
        }
        ProposedMemory p = op.getProposal();
        Decision invalid = firstProblem(
                checkProposed(p),
                checkEntities(p.getEntities()),
                checkTagCount(p.getTags(), p.getEntities()),
                checkLength("trigger", p.getTrigger(), Rules.MAX_SUMMARY));
        if (invalid != null) {
            return invalid;
        }
        String id = MemoryIds.proposal(request.getSpace(), seq);
        ReviewMode mode = reviews.modeFor(request.getSpace(), actor.getId(), p.getConfidence());
        Decision.Accept submitted = new Decision.Accept(new ProposalSubmitted(id, p, mode), id, 1);
        if (mode != ReviewMode.AUTO_COMMIT) {
            return submitted;
        }
        Proposal proposal = Proposal.newBuilder()
                .setId(id)
                .setSpace(request.getSpace())
                .setProposer(actor)
                .setProposal(p)
                .setStatus(io.memorychain.avro.view.ProposalStatus.PENDING)
                .setVersion(1)
                .setSubmittedSeq(seq)
                .setSubmittedAt(now)
                .setUpdatedSeq(seq)
                .setReviewMode(mode)
                .build();
        ResolveProposal auto = ResolveProposal.newBuilder()
                .setProposalId(id)
                .setDecision(ProposalDecision.COMMIT)
                .setReason("auto-committed: review mode auto_commit, trusted proposer " + actor.getId()
                        + ", confidence " + p.getConfidence().name().toLowerCase(Locale.ROOT))
                .build();
        Decision commit = commit(request.getSpace(), seq + 1, now, proposal, auto, AUTO_COMMITTER, true);
        if (!(commit instanceof Decision.AcceptAll all)) {
            return submitted; // the proposal cannot be committed as it is (e.g. too large): it waits for a reviewer
        }
        List<Decision.Accept> events = new ArrayList<>();
        events.add(submitted);
        events.addAll(all.events());
        return new Decision.AcceptAll(events);
    }

    /**
     * Accepted: ProposalResolved (+ MemoryCreated for COMMIT). The outcome names the committed memory (version 1) for
     * COMMIT, else the proposal at its new version.
     */
    Decision resolve(MemoryRequest request, long seq, WriteModel model, Instant now, ResolveProposal op) {
        Actor reviewer = request.getActor();
        String space = request.getSpace();
        if (!REVIEWERS.contains(reviewer.getType())) {
            return reject(
                    FORBIDDEN,
                    names(reviewer) + " cannot resolve proposals: the main agent, a user or an admin "
                            + "commits, rejects or defers them");
        }
        String id = op.getProposalId();
        Proposal proposal = isBlank(id) ? null : model.proposal(space, id);
        if (proposal == null) {
            return reject(NOT_FOUND, "no proposal " + id + " in space " + space);
        }
        ProposedMemory p = proposal.getProposal();
        if (proposal.getReviewMode() == ReviewMode.MANUAL && reviewer.getType() != ActorType.USER) {
            return reject(
                    FORBIDDEN,
                    "proposal " + id + " is under manual review: only a user decides it, not " + names(reviewer));
        }
        Decision.Reject denied = categories.written(reviewer, p.getCategory()).orElse(null);
        if (denied != null) {
            return reject(denied.code(), "proposal " + id + ": " + denied.message());
        }
        if (!Proposals.isOpen(proposal)) {
            return reject(
                    ALREADY_RESOLVED,
                    "proposal " + id + " was already "
                            + proposal.getStatus().name().toLowerCase(Locale.ROOT)
                            + (proposal.getMemoryId() == null ? "" : " as memory " + proposal.getMemoryId())
                            + " by " + names(proposal.getResolvedBy()) + " at seq " + proposal.getUpdatedSeq());
        }
        Integer expected = request.getExpectedVersion();
        if (expected != null && expected != proposal.getVersion()) {
            return reject(
                    VERSION_CONFLICT,
                    "proposal " + id + " is at version " + proposal.getVersion() + ", expected " + expected);
        }
        Decision invalid = firstProblem(
                checkLength("reason", op.getReason(), Rules.MAX_REASON), checkConflicts(op.getConflictsWith()));
        if (invalid != null) {
            return invalid;
        }
        boolean overrides = op.getKind() != null
                || op.getTier() != null
                || op.getCategory() != null
                || op.getSummary() != null
                || op.getTags() != null
                || op.getImportance() != null
                || op.getConfidence() != null
                || op.getPinned() != null;
        if (op.getDecision() != ProposalDecision.COMMIT) {
            if (overrides) {
                return reject(
                        INVALID_ARGUMENT,
                        "overrides (kind, tier, category, summary, tags, importance, "
                                + "confidence, pinned) apply to COMMIT only, not to " + op.getDecision());
            }
            ProposalResolved resolved = new ProposalResolved(
                    id, op.getDecision(), op.getReason(), null, List.copyOf(op.getConflictsWith()), false);
            return new Decision.Accept(resolved, id, proposal.getVersion() + 1);
        }
        return commit(space, seq, now, proposal, op, reviewer, false);
    }

    /**
     * The commit of an open proposal at LOW confidence by the reviewer, as a contradiction's KEEP_BOTH resolution
     * writes it (ProposalResolved at {@code seq}, MemoryCreated at seq + 1), or a rejection when it cannot be
     * committed.
     */
    Decision commitAtLowConfidence(
            String space, long seq, Instant now, Proposal proposal, Actor reviewer, String reason) {
        ResolveProposal op = ResolveProposal.newBuilder()
                .setProposalId(proposal.getId())
                .setDecision(ProposalDecision.COMMIT)
                .setReason(reason)
                .setConfidence(io.memorychain.avro.Confidence.LOW)
                .build();
        return commit(space, seq, now, proposal, op, reviewer, false);
    }

    /** The rejection of an open proposal by the reviewer (a contradiction's loser). */
    static Decision.Accept rejection(Proposal proposal, String reason, List<String> conflicts) {
        return new Decision.Accept(
                new ProposalResolved(
                        proposal.getId(), ProposalDecision.REJECT, reason, null, List.copyOf(conflicts), false),
                proposal.getId(),
                proposal.getVersion() + 1);
    }

    /**
     * @param seq the seq of the ProposalResolved event (the memory is created at seq + 1)
     * @param reviewer the reviewer: the request's actor, or {@link #AUTO_COMMITTER} (auto: the events' actor)
     */
    private Decision commit(
            String space, long seq, Instant now, Proposal proposal, ResolveProposal op, Actor reviewer, boolean auto) {
        ProposedMemory p = proposal.getProposal();
        Decision invalid = firstProblem(
                op.getKind() == MemoryKind.BLOCK
                        ? reject(INVALID_ARGUMENT, "kind BLOCK is not a store a proposal can be committed to")
                        : null,
                op.getImportance() == null ? null : checkImportance(op.getImportance()),
                op.getTags() == null ? null : checkTags(op.getTags()),
                checkLength("summary", op.getSummary(), Rules.MAX_SUMMARY),
                checkLength("category", op.getCategory(), Rules.MAX_SHORT_TEXT),
                decider.checkContent(p.getContent())); // the size limit may have shrunk since it was proposed
        if (invalid != null) {
            return invalid;
        }
        String memoryId = MemoryIds.of(space, seq + 1);
        Memory memory = Memory.newBuilder()
                .setId(memoryId)
                .setSpace(space)
                .setKind(op.getKind() != null ? op.getKind() : p.getKind())
                .setTier(op.getTier() != null ? op.getTier() : p.getCoreWorthy() ? Tier.CORE : Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(op.getCategory() != null ? op.getCategory() : p.getCategory())
                .setContent(p.getContent())
                .setSummary(op.getSummary() != null ? op.getSummary() : p.getSummary())
                .setTags(op.getTags() != null ? List.copyOf(op.getTags()) : tagsAndEntities(p))
                .setImportance(op.getImportance() != null ? op.getImportance() : p.getImportance())
                .setConfidence(op.getConfidence() != null ? op.getConfidence() : p.getConfidence())
                .setSource("proposal:" + proposal.getId())
                .setUserId(null)
                .setAgentId(null)
                .setRunId(null)
                .setActorId(proposal.getProposer().getId())
                .setThreadId(null)
                .setRole(null)
                .setCreatedAt(proposal.getSubmittedAt())
                .setUpdatedAt(now)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(op.getPinned() != null ? op.getPinned() : p.getPinned())
                .setConstitutional(false)
                .setContentHash(ContentHash.of(p.getContent()))
                .build();
        ProposalResolved resolved = new ProposalResolved(
                proposal.getId(),
                ProposalDecision.COMMIT,
                op.getReason(),
                memoryId,
                List.copyOf(op.getConflictsWith()),
                auto);
        return new Decision.AcceptAll(List.of(
                new Decision.Accept(resolved, proposal.getId(), proposal.getVersion() + 1, auto ? reviewer : null),
                new Decision.Accept(
                        new MemoryCreated(memory), memoryId, 1, committer(reviewer, proposal.getProposer()))));
    }

    /**
     * The actor of a committed proposal's MemoryCreated event: the reviewer's type with the id
     * {@code commit-from:PROPOSER}, the seed's {@code bot:commit-from:NAME} (the reviewer's own id is on the
     * ProposalResolved event just before it, same request id).
     */
    static Actor committer(Actor reviewer, Actor proposer) {
        return new Actor(reviewer.getType(), COMMIT_FROM + proposer.getId());
    }

    private Decision checkProposed(ProposedMemory p) {
        if (p.getKind() == MemoryKind.BLOCK) {
            return reject(
                    INVALID_ARGUMENT,
                    "blocks cannot be proposed; suggest semantic, episodic or procedural " + "(pinned for the vault)");
        }
        return firstProblem(
                decider.checkContent(p.getContent()),
                checkImportance(p.getImportance()),
                checkTags(p.getTags()),
                checkLength("summary", p.getSummary(), Rules.MAX_SUMMARY),
                checkLength("category", p.getCategory(), Rules.MAX_SHORT_TEXT));
    }

    private static Decision checkEntities(List<String> entities) {
        for (String entity : entities) {
            if (isBlank(entity) || entity.length() > Rules.MAX_TAG_LENGTH) {
                return reject(INVALID_ARGUMENT, "entities must be 1 to " + Rules.MAX_TAG_LENGTH + " characters");
            }
        }
        return null;
    }

    /** Entities become tags on commit, so together they obey the tag limit. */
    private static Decision checkTagCount(List<String> tags, List<String> entities) {
        Set<String> all = new LinkedHashSet<>(tags);
        all.addAll(entities);
        return all.size() > Rules.MAX_TAGS
                ? reject(
                        INVALID_ARGUMENT,
                        "at most " + Rules.MAX_TAGS + " tags and entities together, got " + all.size())
                : null;
    }

    private static Decision checkConflicts(List<String> ids) {
        if (ids.size() > MAX_CONFLICTS) {
            return reject(INVALID_ARGUMENT, "at most " + MAX_CONFLICTS + " conflicts_with ids, got " + ids.size());
        }
        for (String id : ids) {
            if (isBlank(id) || id.length() > Rules.MAX_SHORT_TEXT) {
                return reject(
                        INVALID_ARGUMENT, "conflicts_with ids must be 1 to " + Rules.MAX_SHORT_TEXT + " characters");
            }
        }
        return null;
    }

    private static List<String> tagsAndEntities(ProposedMemory p) {
        Set<String> all = new LinkedHashSet<>(p.getTags());
        all.addAll(p.getEntities());
        return new ArrayList<>(all);
    }

    private static String names(Actor actor) {
        return actor == null ? "unknown" : actor.getType().name().toLowerCase(Locale.ROOT) + ":" + actor.getId();
    }
}
