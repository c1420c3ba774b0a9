package io.memorychain.projector.view;

import io.memorychain.projector.projection.AppliedListener;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * Wakes up read-your-writes waiters when the projection applies an event of their space. What is applied is read from
 * the views themselves (their applied-seq store), never remembered here: a transaction that aborts after the projection
 * applied its events leaves the restored stores behind any seq seen.
 *
 * <p>Waiters wait on their space's monitor, so an event wakes only the waiters of its space (not every waiting request
 * of every space, each then re-reading the store). Observers ({@link #observe}) are told of every event.
 */
public final class AppliedSeqTracker implements AppliedListener {

    private final ConcurrentHashMap<String, Monitor> waiting = new ConcurrentHashMap<>();
    private final List<AppliedListener> observers = new CopyOnWriteArrayList<>();

    @Override
    public void applied(String space, long seq) {
        Monitor monitor = waiting.get(space);
        if (monitor != null) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
        for (AppliedListener observer : observers) {
            observer.applied(space, seq);
        }
    }

    /** Tells {@code observer} of every event the projection applies, on its stream thread: it must not block. */
    public void observe(AppliedListener observer) {
        observers.add(observer);
    }

    /** Waits until {@code current} reports at least {@code seq} for {@code space}, at most {@code timeoutNanos}. */
    boolean await(String space, LongSupplier current, long seq, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        Monitor monitor = waiting.compute(space, (s, m) -> (m == null ? new Monitor() : m).join());
        try {
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
        } finally {
            waiting.computeIfPresent(space, (s, m) -> m.leave() ? null : m);
        }
    }

    /** Spaces with a waiter (tests). */
    int spacesWaiting() {
        return waiting.size();
    }

    /** A space's monitor and how many wait on it; changed only inside the map's compute calls. */
    private static final class Monitor {

        private int waiters;

        Monitor join() {
            waiters++;
            return this;
        }

        /** @return whether the last waiter left */
        boolean leave() {
            return --waiters == 0;
        }
    }
}
