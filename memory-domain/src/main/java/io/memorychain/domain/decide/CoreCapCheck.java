package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.BUDGET_EXCEEDED;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.RollbackSpace;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.core.CoreCapPolicy;
import io.memorychain.domain.refinement.Ledger;
import io.memorychain.domain.refinement.SessionIds;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The core-memory cap (docs/architecture.md §5, §9; seed 001 §4), part of {@link Decider}: an accepted decision whose
 * events would take the space's core memory over its cap and make it larger than it is now is refused with
 * {@code BUDGET_EXCEEDED} (the message names the cap, the size now and the size it would reach), or, for a space
 * configured {@code refine}, accepted and followed in the same decision by a {@code RefinementStarted} (trigger
 * {@code TOKEN_BUDGET}, target = the cap, actor {@code system:core-cap}) unless a session is open already.
 *
 * <p>A change that shrinks the core, or keeps it at or under the cap, always passes, so a core already over its cap (a
 * lowered cap, an older chain) can still be edited down. Rollbacks are not checked: they restore an earlier state of
 * the chain. Tokens are counted from the write model and the decision's own events ({@link Ledger#coreTokens}), a pure
 * function of the request and the state: no clock.
 */
final class CoreCapCheck {

    static final Actor ACTOR =
            Actor.newBuilder().setType(ActorType.SYSTEM).setId("core-cap").build();
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final CoreCapPolicy policy;

    CoreCapCheck(CoreCapPolicy policy) {
        this.policy = policy;
    }

    Decision check(MemoryRequest request, long seq, WriteModel model, Instant now, Decision decision) {
        if (decision instanceof Decision.Reject || request.getOp() instanceof RollbackSpace) {
            return decision;
        }
        String space = request.getSpace();
        CoreCapPolicy.Cap cap = policy.forSpace(space);
        if (!cap.capped()) {
            return decision;
        }
        List<Decision.Accept> events =
                decision instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) decision);
        TreeMap<String, Memory> changed = new TreeMap<>();
        boolean touchesCore = false;
        long eventSeq = seq;
        for (Decision.Accept accept : events) {
            MemoryEvent event = MemoryEvent.newBuilder()
                    .setSpace(space)
                    .setSeq(eventSeq++)
                    .setPrevHash(EMPTY)
                    .setHash(EMPTY)
                    .setSignature(EMPTY)
                    .setKeyId("")
                    .setRequestId(request.getRequestId())
                    .setActor(accept.actor() != null ? accept.actor() : request.getActor())
                    .setOccurredAt(now)
                    .setSessionId(request.getSessionId())
                    .setPayload(accept.payload())
                    .build();
            for (Evolver.Change change :
                    Evolver.evolve(event, id -> changed.containsKey(id) ? changed.get(id) : model.memory(space, id))) {
                changed.put(change.after().getId(), change.after());
                touchesCore |=
                        Ledger.inCore(change.after()) || (change.before() != null && Ledger.inCore(change.before()));
            }
        }
        if (!touchesCore) {
            return decision;
        }
        TreeMap<String, Memory> before = new TreeMap<>();
        model.memories(space).forEach(m -> before.put(m.getId(), m));
        int tokensBefore = Ledger.coreTokens(before.values());
        TreeMap<String, Memory> after = new TreeMap<>(before);
        after.putAll(changed);
        int tokensAfter = Ledger.coreTokens(after.values());
        if (tokensAfter <= cap.tokens() || tokensAfter <= tokensBefore) {
            return decision;
        }
        if (cap.overCap() == CoreCapPolicy.OverCap.REJECT) {
            return Decision.reject(
                    BUDGET_EXCEEDED,
                    String.format(
                            Locale.ROOT,
                            "core memory cap exceeded: space %s has a core memory cap of %d tokens; its core is %d tokens now "
                                    + "and this change would make it %d. Shorten or remove core memories (or blocks) first, "
                                    + "or write this one to the working tier",
                            space,
                            cap.tokens(),
                            tokensBefore,
                            tokensAfter));
        }
        if (model.openRefinement(space) != null) {
            return decision; // a session is already open: it is where the core gets brought back under the cap
        }
        long startSeq = seq + events.size();
        RefinementStarted started = RefinementStarted.newBuilder()
                .setSessionId(SessionIds.of(space, startSeq))
                .setTrigger(RefinementTrigger.TOKEN_BUDGET)
                .setCoreTokens(tokensAfter)
                .setTargetTokens(cap.tokens())
                .setLedgerSize(
                        (int) after.values().stream().filter(Ledger::inLedger).count())
                .setDuplicatesRemoved(0)
                .setReason(String.format(
                        Locale.ROOT,
                        "core memory is at %d tokens, over the space's cap of %d tokens "
                                + "(it was %d before request %s)",
                        tokensAfter,
                        cap.tokens(),
                        tokensBefore,
                        request.getRequestId()))
                .build();
        // the outcome names the last event: keep naming the change the caller asked for
        Decision.Accept last = events.get(events.size() - 1);
        List<Decision.Accept> out = new ArrayList<>(events);
        out.add(new Decision.Accept(started, last.memoryId(), last.version(), ACTOR));
        return new Decision.AcceptAll(out);
    }
}
