package io.memorychain.api.write;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.ops.BackendOpsRecorder;
import io.memorychain.api.ops.OpsRecorder;
import io.memorychain.api.timing.ServerTiming;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.decide.CategoryGuard;
import io.memorychain.projector.ops.OpsDerivation;
import io.memorychain.projector.view.MemoryViews;
import io.micronaut.context.event.ApplicationEventPublisher;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path with read-your-writes: publish the request, wait (bounded by {@code memory.write-timeout}) for its
 * outcome; a rejection becomes its code's HTTP status; an acceptance is awaited in the local projection
 * ({@code awaitApplied(space, seq)}) and answered with the memory as the views now show it. Running out of time is 503
 * TIMEOUT with the request id: retrying with the same Idempotency-Key returns the original outcome and never applies
 * the change twice. A write outside the actor's category allowlist is refused with CATEGORY_NOT_ALLOWED before anything
 * is published (as judged by the local views; the sequencer enforces the same rule on the chain's state).
 */
@Singleton
public class WriteExecutor {

    private static final Logger log = LoggerFactory.getLogger(WriteExecutor.class);

    private final MemoryBackend backend;
    private final Duration timeout;
    private final Clock clock;
    private final CategoryGuard categories;
    /** Refused writes as operational events (accepted ones come from the chain: docs/architecture.md §2). */
    private final OpsRecorder ops;
    /** Accepted writes, for follow-up work (contradiction detection); none without the application context. */
    private final ApplicationEventPublisher<WriteAccepted> accepted;

    @Inject
    public WriteExecutor(
            MemoryBackend backend,
            MemoryConfig config,
            CategoryAccess categories,
            ApplicationEventPublisher<WriteAccepted> accepted) {
        this(backend, config.getWriteTimeout(), Clock.systemUTC(), categories, accepted);
    }

    /** Without category allowlists. */
    public WriteExecutor(MemoryBackend backend, Duration timeout, Clock clock) {
        this(backend, timeout, clock, CategoryAccess.unrestricted());
    }

    public WriteExecutor(MemoryBackend backend, Duration timeout, Clock clock, CategoryAccess categories) {
        this(backend, timeout, clock, categories, ApplicationEventPublisher.noOp());
    }

    private WriteExecutor(
            MemoryBackend backend,
            Duration timeout,
            Clock clock,
            CategoryAccess categories,
            ApplicationEventPublisher<WriteAccepted> accepted) {
        this.accepted = accepted;
        this.backend = backend;
        this.timeout = timeout;
        this.clock = clock;
        this.categories = new CategoryGuard(categories);
        this.ops = new BackendOpsRecorder(backend);
    }

    /** The Avro request for an operation (one of the {@code MemoryRequest.op} union's records). */
    public MemoryRequest request(WriteContext ctx, Object op) {
        return MemoryRequest.newBuilder()
                .setRequestId(ctx.requestId())
                .setSpace(ctx.space())
                .setActor(ctx.actor())
                .setExpectedVersion(ctx.expectedVersion())
                .setSessionId(ctx.sessionId())
                .setRequestedAt(clock.instant())
                .setOp(op)
                .build();
    }

    /** Writes and reads back the memory named by the outcome's {@code memory_id}. */
    public WriteResult execute(WriteContext ctx, Object op) {
        return execute(
                ctx,
                op,
                (views, outcome) -> outcome.getMemoryId() == null
                        ? Optional.empty()
                        : views.memory(ctx.space(), outcome.getMemoryId()));
    }

    /** Writes and reads back with {@code readBack} (e.g. the block by label when the outcome names no memory). */
    public WriteResult execute(
            WriteContext ctx, Object op, BiFunction<MemoryViews, MemoryOutcome, Optional<Memory>> readBack) {
        return submit(
                ctx,
                op,
                (views, outcome) -> readBack.apply(views, outcome).map(memory -> new WriteResult(memory, outcome)));
    }

    /**
     * Writes and waits until the local views show the change; the accepted outcome, for writes whose result is not a
     * memory (proposals). Rejections, timeouts and publishing failures are thrown as for {@link #execute}.
     */
    public MemoryOutcome apply(WriteContext ctx, Object op) {
        return submit(ctx, op, (views, outcome) -> Optional.of(outcome));
    }

    /**
     * The write path for any result: publish, await the outcome and its seq in the local views, then {@code readBack}
     * what the caller answers with.
     */
    public <T> T submit(WriteContext ctx, Object op, BiFunction<MemoryViews, MemoryOutcome, Optional<T>> readBack) {
        ServerTiming timing = ServerTiming.current();
        long started = System.nanoTime();
        MemoryRequest request = request(ctx, op);
        categories
                .check(request, id -> backend.views().memory(ctx.space(), id).orElse(null))
                .ifPresent(denied -> {
                    refused(request, ErrorCodes.CATEGORY_NOT_ALLOWED);
                    throw new ApiException(ErrorCodes.CATEGORY_NOT_ALLOWED, denied.message());
                });
        long appliedBefore = appliedSeq(request.getSpace());
        long published = timing.since("check", started);
        long deadline = published + timeout.toNanos();
        MemoryOutcome outcome = awaitOutcome(request, deadline);
        long outcomeAt = System.nanoTime();
        recordSequencing(timing, outcome, published, outcomeAt);
        if (!outcome.getAccepted()) {
            String code = outcome.getCode() == null ? ErrorCodes.REJECTED : outcome.getCode();
            String message = outcome.getMessage() == null ? "Rejected by the sequencer" : outcome.getMessage();
            refused(request, code);
            throw new ApiException(code, message, request.getRequestId());
        }
        if (outcome.getSeq() == null) {
            throw new ApiException(
                    ErrorCodes.INTERNAL, "Accepted outcome without a chain position", request.getRequestId());
        }
        MemoryViews views = backend.views();
        awaitApplied(views, request, outcome.getSeq(), deadline);
        if (isHeldForConsent(request, outcome)) {
            throw new ApiException(
                    ErrorCodes.HELD_FOR_CONSENT,
                    "Not applied: this write sets a sensitive profile field"
                            + " and is held for the user's consent as consent request " + outcome.getMemoryId()
                            + " (GET /consents); it applies when the user grants it",
                    request.getRequestId());
        }
        announce(request, outcome);
        long applied = timing.since("apply", outcomeAt);
        Optional<T> result = readBack.apply(views, outcome);
        timing.since("read", applied);
        return result.orElseThrow(() -> {
            if (outcome.getSeq() <= appliedBefore) {
                throw replayed(request, outcome);
            }
            log.error(
                    "Request {} accepted as seq {} of {} for memory {}, but the views do not show it",
                    request.getRequestId(),
                    outcome.getSeq(),
                    request.getSpace(),
                    outcome.getMemoryId());
            return new ApiException(
                    ErrorCodes.INTERNAL,
                    "Accepted as seq " + outcome.getSeq() + " but the memory cannot be read back; see the server log",
                    request.getRequestId());
        });
    }

    /**
     * A write of a sensitive profile field by someone other than the user (a user_profile block line, a memory tagged
     * profile:&lt;field&gt;, written or committed from a proposal) that the sequencer held as a consent request
     * (docs/architecture.md §21): its outcome names the consent request, not a memory.
     */
    static boolean isHeldForConsent(MemoryRequest request, MemoryOutcome outcome) {
        Object op = request.getOp();
        boolean write = op instanceof io.memorychain.avro.UpdateBlock
                || op instanceof io.memorychain.avro.CreateMemory
                || op instanceof io.memorychain.avro.UpdateMemory
                || op instanceof io.memorychain.avro.ResolveProposal
                || op instanceof io.memorychain.avro.SubmitProposal;
        return write
                && outcome.getMemoryId() != null
                && outcome.getMemoryId().equals(MemoryIds.consent(request.getSpace(), outcome.getSeq()));
    }

    /** Tells the listeners (which only queue work); a listener's failure never fails the accepted write. */
    private void announce(MemoryRequest request, MemoryOutcome outcome) {
        try {
            accepted.publishEvent(new WriteAccepted(request, outcome));
        } catch (RuntimeException e) {
            log.warn(
                    "A listener of accepted writes failed on request {} (seq {} of {}): {}",
                    request.getRequestId(),
                    outcome.getSeq(),
                    request.getSpace(),
                    e.toString());
        }
    }

    /**
     * The views' applied seq of the space before a request is published, or -1 when they cannot tell (restoring). An
     * outcome at or below it cannot be this request's own decision (a new event gets a seq past the chain's head): it
     * is the first outcome of an earlier request with the same id, answered again.
     */
    private long appliedSeq(String space) {
        try {
            return backend.views().appliedSeq(space);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * 409 INVALID_STATE: the sequencer answered the first outcome of an earlier request with this request id (the same
     * {@code Idempotency-Key}), and what this call answers with cannot be read from it: the key was used for a
     * different operation, or the earlier request's result is gone since (erased).
     */
    private static ApiException replayed(MemoryRequest request, MemoryOutcome outcome) {
        log.info(
                "Request {} of {} answered with the first outcome of its id (seq {}), which this operation cannot "
                        + "read back: the Idempotency-Key was used before for another request",
                request.getRequestId(),
                request.getSpace(),
                outcome.getSeq());
        return new ApiException(
                ErrorCodes.INVALID_STATE,
                "Idempotency-Key " + request.getRequestId()
                        + " was already used by an earlier request (seq " + outcome.getSeq()
                        + "), whose outcome is not a result"
                        + " of this operation; send a new key for a new request",
                request.getRequestId());
    }

    /**
     * Splits the wait for the outcome at the sequencer's decision time: {@code sequence} (publishing, the sequencer
     * reading and deciding) and {@code commit} (its transaction committing, the outcome read back). The decision time
     * is the sequencer's clock, so the split is only as good as the clocks agree (exact on the embedded default).
     */
    private void recordSequencing(ServerTiming timing, MemoryOutcome outcome, long published, long outcomeAt) {
        long waited = outcomeAt - published;
        long decidedAgo =
                Duration.between(outcome.getOccurredAt(), clock.instant()).toNanos();
        long sequence = Math.min(waited, Math.max(0, waited - decidedAgo));
        timing.add("sequence", sequence);
        timing.add("commit", waited - sequence);
    }

    private void refused(MemoryRequest request, String code) {
        String node = request.getActor().getType() == ActorType.WORKER ? OpsDerivation.WORKER : OpsDerivation.API;
        ops.record(OpsRecorder.Op.of(
                        request.getSpace(),
                        request.getActor(),
                        node,
                        OpsDerivation.opOf(request.getOp()),
                        OpsDerivation.ERROR)
                .withCode(code));
    }

    private MemoryOutcome awaitOutcome(MemoryRequest request, long deadline) {
        CompletableFuture<MemoryOutcome> future;
        try {
            future = backend.publish(request);
        } catch (RuntimeException e) {
            throw unavailable(request, e);
        }
        try {
            return future.get(remaining(deadline), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw timeout(request, "no outcome from the sequencer yet");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw timeout(request, "interrupted while waiting for the outcome");
        } catch (ExecutionException e) {
            throw unavailable(request, e.getCause() == null ? e : e.getCause());
        }
    }

    private void awaitApplied(MemoryViews views, MemoryRequest request, long seq, long deadline) {
        try {
            if (!views.awaitApplied(request.getSpace(), seq, Duration.ofNanos(remaining(deadline)))) {
                throw timeout(request, "accepted as seq " + seq + " but not yet visible in the views");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw timeout(request, "interrupted while waiting for seq " + seq + " to be applied");
        }
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private ApiException timeout(MemoryRequest request, String what) {
        return new ApiException(
                ErrorCodes.TIMEOUT,
                "Request " + request.getRequestId() + " did not complete within "
                        + timeout.toMillis() + " ms (" + what + "); retry with the same Idempotency-Key ("
                        + request.getRequestId()
                        + ") to get its outcome without applying it twice",
                request.getRequestId());
    }

    private static ApiException unavailable(MemoryRequest request, Throwable cause) {
        log.warn(
                "Request {} for space {} could not be published: {}",
                request.getRequestId(),
                request.getSpace(),
                cause.toString());
        return new ApiException(
                ErrorCodes.UNAVAILABLE,
                "Request " + request.getRequestId()
                        + " could not be published (" + cause.getMessage() + "); retry with the same Idempotency-Key ("
                        + request.getRequestId() + ")",
                request.getRequestId());
    }
}
