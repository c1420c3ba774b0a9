package io.memorychain.projector.view;

import io.memorychain.projector.projection.AppliedListener;

/**
 * Wakes up read-your-writes waiters when the projection applies an event. What is applied is read from the views
 * themselves (their applied-seq store), never remembered here: a transaction that aborts after the projection applied
 * its events leaves the restored stores behind any seq seen.
 */
public final class AppliedSeqTracker implements AppliedListener {

    private final Object monitor = new Object();

    @Override
    public void applied(String space, long seq) {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** Waits until {@code current} reports at least {@code seq}, at most {@code timeoutNanos}. */
    boolean await(java.util.function.LongSupplier current, long seq, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        synchronized (monitor) {
            while (current.getAsLong() < seq) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                monitor.wait(Math.max(1, left / 1_000_000), 0);
            }
            return true;
        }
    }
}
