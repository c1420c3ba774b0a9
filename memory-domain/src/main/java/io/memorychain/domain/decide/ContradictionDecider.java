package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_RESOLVED;
import static io.memorychain.domain.RejectionCode.CONSTITUTIONAL;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.decide.Decider.isBlank;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ContradictionFlagged;
import io.memorychain.avro.ContradictionResolution;
import io.memorychain.avro.ContradictionResolved;
import io.memorychain.avro.FlagContradiction;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ResolveContradiction;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.Rules;
import io.memorychain.domain.contradiction.Contradictions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Contradictions between two memories or proposals (docs/architecture.md §10, seed 001 §13.6): flagged on both sides,
 * then resolved by ONE_WINS (the other superseded, or rejected when it is a proposal), KEEP_BOTH (both kept at LOW
 * confidence, proposals committed so, and a {@code contradicts} relation both ways) or ASK_USER (a question for the
 * user in /context until resolved otherwise). Every resolution is a ContradictionResolved event followed by its effects
 * under the same request id, so the audit shows it whole.
 */
final class ContradictionDecider {

    /** Who may flag a contradiction (sub-agents are refused before this: they only propose). */
    static final Set<ActorType> FLAGGERS =
            EnumSet.of(ActorType.AGENT, ActorType.USER, ActorType.ADMIN, ActorType.WORKER);
    /** Who may resolve one: the main agent, the user, an admin. */
    static final Set<ActorType> RESOLVERS = EnumSet.of(ActorType.AGENT, ActorType.USER, ActorType.ADMIN);
    /** The relation type KEEP_BOTH links with, both ways. */
    static final String CONTRADICTS = "contradicts";

    private final ProposalDecider proposals;

    ContradictionDecider(ProposalDecider proposals) {
        this.proposals = proposals;
    }

    /** Accepted: ContradictionFlagged; the outcome's memory id is the contradiction id. */
    Decision flag(MemoryRequest request, long seq, WriteModel model, FlagContradiction op) {
        if (!FLAGGERS.contains(request.getActor().getType())) {
            return reject(FORBIDDEN, names(request.getActor()) + " cannot flag contradictions");
        }
        String space = request.getSpace();
        String a = op.getFirstId();
        String b = op.getSecondId();
        if (isBlank(a) || isBlank(b) || a.length() > Rules.MAX_SHORT_TEXT || b.length() > Rules.MAX_SHORT_TEXT) {
            return reject(
                    INVALID_ARGUMENT,
                    "first_id and second_id are required, 1 to " + Rules.MAX_SHORT_TEXT + " characters");
        }
        if (a.equals(b)) {
            return reject(INVALID_ARGUMENT, "a memory cannot contradict itself: first_id and second_id are both " + a);
        }
        if (op.getSimilarity() != null && !(op.getSimilarity() >= -1 && op.getSimilarity() <= 1)) {
            return reject(INVALID_ARGUMENT, "similarity must be between -1 and 1");
        }
        for (String id : List.of(a, b)) {
            Decision problem = checkSide(space, id, model);
            if (problem != null) {
                return problem;
            }
        }
        Contradiction open =
                Contradictions.openBetween(model.governance(space), a, b).orElse(null);
        if (open != null) {
            return reject(
                    INVALID_STATE,
                    a + " and " + b + " are already flagged as contradiction " + open.getId() + "; resolve it");
        }
        String id = MemoryIds.contradiction(space, seq);
        return new Decision.Accept(new ContradictionFlagged(id, a, b, op.getSimilarity()), id, 1);
    }

    /**
     * Accepted: ContradictionResolved and the resolution's events (the outcome names the last one's memory, if any).
     */
    Decision resolve(MemoryRequest request, long seq, WriteModel model, Instant now, ResolveContradiction op) {
        Actor actor = request.getActor();
        if (!RESOLVERS.contains(actor.getType())) {
            return reject(
                    FORBIDDEN,
                    names(actor) + " cannot resolve contradictions: the main agent, a user or an "
                            + "admin resolves them");
        }
        String space = request.getSpace();
        String id = op.getContradictionId();
        Contradiction c = isBlank(id)
                ? null
                : Contradictions.find(model.governance(space), id).orElse(null);
        if (c == null) {
            return reject(NOT_FOUND, "no contradiction " + id + " in space " + space);
        }
        if (!Contradictions.isOpen(c)) {
            return reject(
                    ALREADY_RESOLVED,
                    "contradiction " + id + " was already resolved ("
                            + c.getResolution().name().toLowerCase(Locale.ROOT) + ") at seq " + c.getResolvedSeq());
        }
        ContradictionResolution how = op.getResolution();
        if (how != ContradictionResolution.ONE_WINS && op.getWinnerId() != null) {
            return reject(INVALID_ARGUMENT, "winner_id applies to one_wins only");
        }
        Decision.Accept resolved = new Decision.Accept(new ContradictionResolved(id, how, op.getWinnerId()), id, 1);
        return switch (how) {
            case ASK_USER ->
                c.getResolution() == ContradictionResolution.ASK_USER
                        ? reject(INVALID_STATE, "contradiction " + id + " already waits for the user's answer")
                        : resolved;
            case ONE_WINS -> oneWins(space, seq, model, now, actor, c, op.getWinnerId(), resolved);
            case KEEP_BOTH -> keepBoth(space, seq, model, now, actor, c, resolved);
            case MOOT ->
                reject(
                        INVALID_ARGUMENT,
                        "moot is recorded by the sequencer when a side stops being active "
                                + "or open: resolve with one_wins, keep_both or ask_user");
        };
    }

    private Decision oneWins(
            String space,
            long seq,
            WriteModel model,
            Instant now,
            Actor actor,
            Contradiction c,
            String winner,
            Decision.Accept resolved) {
        if (!c.getFirstId().equals(winner) && !c.getSecondId().equals(winner)) {
            return reject(
                    INVALID_ARGUMENT, "one_wins needs winner_id, one of " + c.getFirstId() + " and " + c.getSecondId());
        }
        String loser = c.getFirstId().equals(winner) ? c.getSecondId() : c.getFirstId();
        String reason = "contradiction " + c.getId() + ": " + winner + " wins";
        Decision problem = checkSide(space, loser, model);
        if (problem != null) {
            return problem;
        }
        Decision.Accept effect;
        if (isProposal(loser)) {
            effect = ProposalDecider.rejection(model.proposal(space, loser), reason, List.of(winner));
        } else {
            Memory before = model.memory(space, loser);
            if (before.getConstitutional() && actor.getType() == ActorType.AGENT) {
                return reject(CONSTITUTIONAL, "memory " + loser + " is constitutional: an agent cannot supersede it");
            }
            Memory after = Memory.newBuilder(before)
                    .setState(MemoryState.SUPERSEDED)
                    .setSupersededBy(isProposal(winner) ? null : winner)
                    .setVersion(before.getVersion() + 1)
                    .setUpdatedAt(now)
                    .build();
            effect = new Decision.Accept(new MemoryUpdated(before, after), loser, after.getVersion());
        }
        return new Decision.AcceptAll(List.of(resolved, effect));
    }

    private Decision keepBoth(
            String space,
            long seq,
            WriteModel model,
            Instant now,
            Actor actor,
            Contradiction c,
            Decision.Accept resolved) {
        List<Decision.Accept> events = new ArrayList<>(List.of(resolved));
        List<String> memoryIds = new ArrayList<>();
        long next = seq + 1;
        String reason = "contradiction " + c.getId() + ": both kept at low confidence";
        for (String side : List.of(c.getFirstId(), c.getSecondId())) {
            Decision problem = checkSide(space, side, model);
            if (problem != null) {
                return problem;
            }
            if (isProposal(side)) {
                Decision commit =
                        proposals.commitAtLowConfidence(space, next, now, model.proposal(space, side), actor, reason);
                if (!(commit instanceof Decision.AcceptAll all)) {
                    return commit;
                }
                events.addAll(all.events());
                next += all.events().size();
                memoryIds.add(all.events().get(all.events().size() - 1).memoryId());
            } else {
                Memory before = model.memory(space, side);
                if (before.getConfidence() != Confidence.LOW) {
                    Memory after = Memory.newBuilder(before)
                            .setConfidence(Confidence.LOW)
                            .setVersion(before.getVersion() + 1)
                            .setUpdatedAt(now)
                            .build();
                    events.add(new Decision.Accept(new MemoryUpdated(before, after), side, after.getVersion()));
                    next++;
                }
                memoryIds.add(side);
            }
        }
        String a = memoryIds.get(0);
        String b = memoryIds.get(1);
        for (String[] edge : List.of(new String[] {a, b}, new String[] {b, a})) {
            String existing = model.relation(space, edge[0], edge[1]);
            if (CONTRADICTS.equals(existing)) {
                continue;
            }
            if (existing != null) {
                events.add(Decision.Accept.withoutMemory(new MemoriesUnlinked(edge[0], edge[1], existing)));
            }
            events.add(Decision.Accept.withoutMemory(new MemoriesLinked(edge[0], edge[1], CONTRADICTS, 1.0)));
        }
        return new Decision.AcceptAll(events);
    }

    /** A side must be an active memory (not a block) or an open proposal: NOT_FOUND or INVALID_STATE otherwise. */
    private static Decision checkSide(String space, String id, WriteModel model) {
        if (isProposal(id)) {
            Proposal p = model.proposal(space, id);
            if (p == null) {
                return reject(NOT_FOUND, "no proposal " + id + " in space " + space);
            }
            return Proposals.isOpen(p)
                    ? null
                    : reject(
                            INVALID_STATE,
                            "proposal " + id + " is " + p.getStatus().name().toLowerCase(Locale.ROOT) + ", not open");
        }
        Memory m = model.memory(space, id);
        if (m == null) {
            return reject(NOT_FOUND, "no memory " + id + " in space " + space);
        }
        if (m.getKind() == MemoryKind.BLOCK) {
            return reject(INVALID_ARGUMENT, "memory " + id + " is a core block: edit the block instead");
        }
        return m.getState() == MemoryState.ACTIVE
                ? null
                : reject(
                        INVALID_STATE,
                        "memory " + id + " is " + m.getState().name().toLowerCase(Locale.ROOT) + ", not active");
    }

    private static boolean isProposal(String id) {
        return id.startsWith("p");
    }

    private static String names(Actor actor) {
        return actor.getType().name().toLowerCase(Locale.ROOT) + ":" + actor.getId();
    }
}
