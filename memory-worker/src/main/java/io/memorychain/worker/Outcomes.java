package io.memorychain.worker;

import io.memorychain.avro.MemoryOutcome;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for the sequencer's outcome of a request an ops command published. */
final class Outcomes {

    private Outcomes() {}

    /**
     * The outcome, or an {@link IllegalStateException} that says what happened (the command prints it as one line).
     *
     * @param whenLate what to tell the operator when no outcome came in time (the request may still be applied)
     */
    static MemoryOutcome await(
            CompletableFuture<MemoryOutcome> outcome, Duration timeout, String requestId, String whenLate) {
        try {
            return outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the outcome of " + requestId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not publish " + requestId, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no outcome for " + requestId + " within " + timeout + "; " + whenLate, e);
        }
    }
}
