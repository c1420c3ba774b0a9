package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_IN_REFINEMENT;
import static io.memorychain.domain.RejectionCode.TOO_LARGE;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CompleteRefinement;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.DuplicateRemoval;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.domain.ContentHash;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Rules;
import io.memorychain.domain.refinement.DuplicateScan;
import io.memorychain.domain.refinement.Ledger;
import io.memorychain.domain.refinement.RefinementSummary;
import io.memorychain.domain.refinement.SessionIds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The refinement-session rules of the sequencer (docs/architecture.md §9), part of {@link Decider}:
 *
 * <ul>
 *   <li>a request that carries a {@code session_id} is accepted only while that session is the space's open one
 *       ({@code NOT_IN_REFINEMENT} otherwise): that is what makes an edit "inside the session";
 *   <li>{@code StartRefinement} (admins, workers, the system) runs the content-blind exact-duplicate cleanup and opens
 *       the session in one decision: DuplicatesRemoved then RefinementStarted, consecutive seqs, one transaction; a
 *       second start while one is open is {@code INVALID_STATE};
 *   <li>{@code CompleteRefinement} closes the open session with its counts, tokens before and after, the computed
 *       summary line and a JOURNAL memory.
 * </ul>
 */
final class RefinementDecider {

    /** Target of a start request that names none. */
    static final Set<ActorType> STARTERS = EnumSet.of(ActorType.ADMIN, ActorType.WORKER, ActorType.SYSTEM);

    static final List<String> JOURNAL_TAGS = List.of("refinement");

    private final WriteSettings settings;

    RefinementDecider(WriteSettings settings) {
        this.settings = settings;
    }

    /** Null when the request may proceed: it names no session, or the space's open one. */
    Decision checkSession(MemoryRequest request, WriteModel model) {
        String sessionId = request.getSessionId();
        if (sessionId == null) {
            return request.getOp() instanceof CompleteRefinement
                    ? reject(
                            NOT_IN_REFINEMENT,
                            "complete_refinement needs the session_id of the open refinement session")
                    : null;
        }
        if (request.getOp() instanceof StartRefinement) {
            return reject(INVALID_ARGUMENT, "a start request carries no session_id: the session id is assigned");
        }
        RefinementSession open = model.openRefinement(request.getSpace());
        if (open == null) {
            return reject(
                    NOT_IN_REFINEMENT,
                    "no refinement session is open in space " + request.getSpace() + " (the request names session "
                            + sessionId + ")");
        }
        if (!open.getSessionId().equals(sessionId)) {
            return reject(
                    NOT_IN_REFINEMENT,
                    "session " + sessionId + " is not the open refinement session of space " + request.getSpace() + " ("
                            + open.getSessionId() + " is)");
        }
        return null;
    }

    Decision start(MemoryRequest request, long seq, WriteModel model, StartRefinement op) {
        if (!STARTERS.contains(request.getActor().getType())) {
            return reject(
                    FORBIDDEN,
                    "refinement sessions are started by an admin, the schedule or the token-budget "
                            + "trigger, not by "
                            + request.getActor().getType().name().toLowerCase(java.util.Locale.ROOT));
        }
        Integer target = op.getTargetTokens();
        if (target != null && !Rules.isValidTargetTokens(target)) {
            return reject(
                    INVALID_ARGUMENT,
                    "target_tokens must be between 1 and " + Rules.MAX_TARGET_TOKENS + ", was " + target);
        }
        if (op.getReason() != null && op.getReason().length() > Rules.MAX_REASON) {
            return reject(INVALID_ARGUMENT, "reason must be at most " + Rules.MAX_REASON + " characters");
        }
        String space = request.getSpace();
        RefinementSession open = model.openRefinement(space);
        if (open != null) {
            return reject(
                    INVALID_STATE,
                    "refinement session " + open.getSessionId() + " is already open in space " + space
                            + " (started at seq " + open.getStartedSeq() + "); complete it first");
        }
        String sessionId = SessionIds.of(space, seq);
        List<Memory> memories = model.memories(space);
        List<DuplicateRemoval> removals = DuplicateScan.plan(memories);
        Set<String> removed = new HashSet<>();
        removals.forEach(r -> removed.add(r.getMemoryId()));
        List<Memory> remaining =
                memories.stream().filter(m -> !removed.contains(m.getId())).toList();
        RefinementStarted started = RefinementStarted.newBuilder()
                .setSessionId(sessionId)
                .setTrigger(op.getTrigger())
                .setCoreTokens(Ledger.coreTokens(remaining))
                .setTargetTokens(target != null ? target : Rules.DEFAULT_TARGET_TOKENS)
                .setLedgerSize((int) remaining.stream().filter(Ledger::inLedger).count())
                .setDuplicatesRemoved(removals.size())
                .setReason(op.getReason())
                .build();
        return new Decision.AcceptAll(List.of(
                Decision.Accept.withoutMemory(new DuplicatesRemoved(sessionId, removals)),
                Decision.Accept.withoutMemory(started)));
    }

    Decision complete(MemoryRequest request, long seq, WriteModel model, Instant now, CompleteRefinement op) {
        if (op.getSummary() == null || op.getSummary().isBlank()) {
            return reject(INVALID_ARGUMENT, "summary must not be blank");
        }
        String space = request.getSpace();
        RefinementSession open = model.openRefinement(space); // checkSession made sure it is the named one
        int tokensAfter = Ledger.coreTokens(model.memories(space));
        String line = RefinementSummary.line(open.getCounts(), open.getCoreTokens(), tokensAfter);
        String content = line + "\n\n" + op.getSummary().strip();
        int bytes = content.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > settings.maxContentBytes()) {
            return reject(
                    TOO_LARGE,
                    "the journal entry (summary line + summary) is " + bytes + " bytes; the limit is "
                            + settings.maxContentBytes());
        }
        String id = MemoryIds.of(space, seq);
        Memory journal = Memory.newBuilder()
                .setId(id)
                .setSpace(space)
                .setKind(MemoryKind.JOURNAL)
                .setTier(Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(null)
                .setContent(content)
                .setSummary(line)
                .setTags(JOURNAL_TAGS)
                .setImportance(3)
                .setConfidence(Confidence.HIGH)
                .setSource("refinement:" + open.getSessionId())
                .setUserId(null)
                .setAgentId(null)
                .setRunId(null)
                .setActorId(null)
                .setThreadId(null)
                .setRole(null)
                .setCreatedAt(now)
                .setUpdatedAt(now)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash(ContentHash.of(content))
                .build();
        RefinementCompleted completed = RefinementCompleted.newBuilder()
                .setSessionId(open.getSessionId())
                .setSummary(line)
                .setAgentSummary(op.getSummary())
                .setCounts(open.getCounts())
                .setProtectedIds(List.copyOf(open.getProtectedIds()))
                .setTokensBefore(open.getCoreTokens())
                .setTokensAfter(tokensAfter)
                .setJournal(journal)
                .build();
        return new Decision.Accept(completed, id, 1);
    }
}
