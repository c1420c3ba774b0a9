package io.memorychain.projector.view;

import io.memorychain.projector.projection.AppliedListener;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Remembers the last applied seq per space in memory and wakes up read-your-writes waiters. */
public final class AppliedSeqTracker implements AppliedListener {

    private final Map<String, Long> applied = new ConcurrentHashMap<>();
    private final Object monitor = new Object();

    @Override
    public void applied(String space, long seq) {
        applied.merge(space, seq, Math::max);
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** The last seq seen applied since this process started (0 if none). */
    public long seen(String space) {
        return applied.getOrDefault(space, 0L);
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
