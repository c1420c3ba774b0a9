package io.memorychain.api.rollback;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.rollback.HistoryPlanner;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackPlanException;
import io.memorychain.domain.rollback.RollbackPlanner;
import io.memorychain.domain.rollback.RollbackSpec;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time machine (docs/architecture.md §17), transport-neutral: {@link #plan} is the dry run (publishes nothing),
 * {@link #apply} plans again and publishes the plan as one {@code RollbackSpace} request, which the sequencer applies
 * atomically as {@code RollbackApplied} and the restoring events, or refuses with VERSION_CONFLICT when the space moved
 * since. Admin-only (the operation catalogue and the sequencer).
 *
 * <p>A space, memory or actor rollback is planned from this instance's views ({@link HistoryPlanner}): the events after
 * the target, and the touched memories' and edges' versions then and now, so its cost follows what it undoes. A session
 * or reflection rollback, or a space whose views hold no whole edge history, replays the space's chain into the target
 * and head states ({@link RollbackPlanner}; about 6 s at 100,000 memories). Both give the same plan for the same head.
 *
 * <p>One plan at a time on an instance: a second dry run or apply waits for the first (up to {@link #PLAN_QUEUE}, then
 * 503 UNAVAILABLE) instead of taking the other core from the writes and queries.
 *
 * <p>An apply that names its dry run's digest applies that dry run's plan when this instance computed it in the last
 * {@link #PLAN_REUSE} (at most {@link #REUSED_PLANS} of them) instead of replaying the chain again: a plan is a pure
 * function of the chain up to its head seq, and the sequencer refuses it (VERSION_CONFLICT) if the space moved past
 * that head since, as a plan computed again would then differ from the dry run's digest.
 */
@Singleton
public class Rollbacks {

    private static final Logger log = LoggerFactory.getLogger(Rollbacks.class);
    static final Duration PLAN_QUEUE = Duration.ofSeconds(60);
    static final Duration PLAN_REUSE = Duration.ofMinutes(10);
    static final int REUSED_PLANS = 4;

    private final ChainSource chain;
    private final WriteExecutor writes;
    private final GrantedReads granted;
    private final Semaphore planning = new Semaphore(1, true);
    private final Duration queue;
    private final LongSupplier nanoTime;
    /** The last plans computed here, oldest first, kept for the apply that names one's digest. */
    private final Map<PlanKey, Planned> recent = new LinkedHashMap<>();

    private record PlanKey(String space, RollbackSpec spec) {}

    private record Planned(RollbackPlan plan, long at) {}

    public Rollbacks(ChainSource chain, WriteExecutor writes, GrantedReads granted) {
        this(chain, writes, granted, PLAN_QUEUE);
    }

    Rollbacks(ChainSource chain, WriteExecutor writes, GrantedReads granted, Duration queue) {
        this(chain, writes, granted, queue, System::nanoTime);
    }

    Rollbacks(ChainSource chain, WriteExecutor writes, GrantedReads granted, Duration queue, LongSupplier nanoTime) {
        this.chain = chain;
        this.writes = writes;
        this.granted = granted;
        this.queue = queue;
        this.nanoTime = nanoTime;
    }

    /**
     * The dry run as {@code reader} may see it: with the memories' content under a grant of the reader's covering them
     * (recorded as a read, docs/architecture.md §13), else ids, changed fields and versions only.
     */
    public RollbackPlanJson planFor(String space, Actor reader, RollbackSpec spec) {
        RollbackPlan plan = plan(space, spec);
        if (!GrantedReads.needsGrant(reader)) {
            return RollbackPlanJson.of(plan);
        }
        List<String> ids = RollbackPlanJson.memoryIds(plan);
        if (!granted.recordIfCovered(space, reader, "rollback_plan", detail(plan), ids)) {
            return RollbackPlanJson.withoutContent(plan);
        }
        // planned again after the read's own event, so that the answer's head and digest are the chain's (apply works)
        RollbackPlan now = plan(space, spec);
        return ids.containsAll(RollbackPlanJson.memoryIds(now))
                ? RollbackPlanJson.of(now)
                : RollbackPlanJson.withoutContent(now);
    }

    /** The dry run of a rollback as every transport names it ({@link RollbackBody}), as {@code reader} may see it. */
    public RollbackPlanJson planFor(String space, Actor reader, RollbackBody body) {
        return planFor(space, reader, spec(body));
    }

    /**
     * Plans and applies the rollback the body names (its {@code reason} and the dry run's {@code plan_digest}); the
     * answer as {@code ctx}'s actor may see it.
     */
    public RollbackPlanJson applyFor(WriteContext ctx, RollbackBody body) {
        RollbackBody b = body == null ? RollbackBody.NONE : body;
        return shown(ctx.actor(), apply(ctx, spec(b), b.reason(), b.planDigest()));
    }

    /** The spec a body names (null: the whole space, which then needs {@code to_seq} or {@code to_time}). */
    static RollbackSpec spec(RollbackBody body) {
        RollbackBody b = body == null ? RollbackBody.NONE : body;
        return spec(b.memoryId(), b.sessionId(), b.actor(), b.reflectionId(), b.fromSeq(), b.toSeq(), b.toTime());
    }

    /** An applied rollback as {@code reader} may see it (as {@link #planFor}: content under a covering grant). */
    public RollbackPlanJson shown(Actor reader, Applied applied) {
        RollbackPlan plan = applied.plan();
        if (GrantedReads.needsGrant(reader)
                && !granted.recordIfCovered(
                        plan.space(), reader, "rollback", detail(plan), RollbackPlanJson.memoryIds(plan))) {
            return RollbackPlanJson.withoutContent(applied);
        }
        return RollbackPlanJson.of(applied);
    }

    private static String detail(RollbackPlan plan) {
        return GrantedReads.detail(
                "scope",
                plan.scope(),
                "scope_id",
                plan.scopeId(),
                "target_seq",
                plan.targetSeq(),
                "head_seq",
                plan.headSeq());
    }

    /** The spec from the arguments as REST, gRPC and the command line take them; 400 INVALID_ARGUMENT otherwise. */
    public static RollbackSpec spec(
            String memoryId,
            String sessionId,
            String actor,
            String reflectionId,
            Long fromSeq,
            Long toSeq,
            String toTime) {
        Instant time = InputRules.instant("to_time", toTime);
        try {
            return RollbackSpec.of(
                    blankToNull(memoryId),
                    blankToNull(sessionId),
                    blankToNull(actor),
                    blankToNull(reflectionId),
                    fromSeq,
                    toSeq,
                    time);
        } catch (RollbackPlanException e) {
            throw new ApiException(e.code(), e.getMessage());
        }
    }

    /** The dry run: what a rollback would change, memory by memory. */
    public RollbackPlan plan(String space, RollbackSpec spec) {
        awaitTurn();
        try {
            RollbackPlan plan = fromHistory(space, spec).orElseGet(() -> {
                RollbackPlanner planner = new RollbackPlanner(space, spec);
                chain.read(space, planner::accept, (read, total) -> {});
                return planner.plan();
            });
            remember(new PlanKey(space, spec), plan);
            return plan;
        } catch (RollbackPlanException e) {
            throw new ApiException(e.code(), e.getMessage());
        } finally {
            planning.release();
        }
    }

    /**
     * The plan from the views' history, reading only the events after the target; empty when they cannot give it (a
     * session or reflection scope, a space projected before the edge history existed, or views out of step).
     */
    private Optional<RollbackPlan> fromHistory(String space, RollbackSpec spec) {
        try {
            return chain.history(space).flatMap(history -> HistoryPlanner.plan(space, spec, history));
        } catch (IllegalStateException | InvalidStateStoreException e) {
            // views out of step with themselves, or not queryable now (a task restoring)
            log.warn("Rollback of {} planned by replaying its chain: {}", space, e.getMessage());
            return Optional.empty();
        }
    }

    private void awaitTurn() {
        try {
            if (planning.tryAcquire(queue.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new ApiException(
                ErrorCodes.UNAVAILABLE,
                "another rollback plan is being computed on this instance (one at a time: each replays a chain);"
                        + " try again shortly");
    }

    /**
     * Plans and applies. 400 INVALID_ARGUMENT without a reason or when nothing would change; 409 VERSION_CONFLICT when
     * {@code expectedDigest} (the dry run's) differs from the plan now, or when the space moved before the sequencer
     * decided.
     */
    public Applied apply(WriteContext ctx, RollbackSpec spec, String reason, String expectedDigest) {
        String why = InputRules.text("reason", reason, InputRules.MAX_REASON);
        if (why == null || why.isBlank()) {
            throw ApiException.invalid("a rollback needs a reason");
        }
        RollbackPlan plan = planToApply(ctx.space(), spec, expectedDigest);
        if (expectedDigest != null && !expectedDigest.equals(plan.digest())) {
            throw new ApiException(
                    ErrorCodes.VERSION_CONFLICT,
                    "the plan changed since the dry run (digest " + plan.digest() + " at head " + plan.headSeq()
                            + "): review it again");
        }
        if (plan.isEmpty()) {
            throw ApiException.invalid(
                    "nothing to roll back: the scope is already at its state of seq " + plan.targetSeq());
        }
        MemoryOutcome outcome = writes.apply(ctx, plan.toRequest(why));
        return new Applied(plan, outcome.getSeq(), outcome.getRequestId());
    }

    /** The dry run's plan when this instance still holds one with {@code digest}, else the plan now. */
    RollbackPlan planToApply(String space, RollbackSpec spec, String digest) {
        if (digest != null) {
            Planned planned;
            synchronized (recent) {
                planned = recent.get(new PlanKey(space, spec));
            }
            if (planned != null
                    && planned.plan().digest().equals(digest)
                    && nanoTime.getAsLong() - planned.at() < PLAN_REUSE.toNanos()) {
                return planned.plan();
            }
        }
        return plan(space, spec);
    }

    private void remember(PlanKey key, RollbackPlan plan) {
        synchronized (recent) {
            recent.remove(key);
            recent.put(key, new Planned(plan, nanoTime.getAsLong()));
            while (recent.size() > REUSED_PLANS) {
                recent.remove(recent.keySet().iterator().next());
            }
        }
    }

    /** An applied plan: the seq of its last event and the request id. */
    public record Applied(RollbackPlan plan, long seq, String requestId) {}

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
