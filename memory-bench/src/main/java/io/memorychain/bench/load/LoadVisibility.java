package io.memorychain.bench.load;

import io.memorychain.projector.MemoryChainRuntime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Follows accepted requests until the projection has applied their seq in their space (the moment they are queryable:
 * the projection writes its views, then tells its observers), timing them in epoch microseconds against the generator's
 * publish time. The projection's stream thread only records the applied seq per space
 * ({@link MemoryChainRuntime#observeApplied}); a watcher thread matches pending requests against it every millisecond,
 * so measuring costs the measured system next to nothing (polling the applied-seq store per space cost it a fifth of a
 * core).
 */
final class LoadVisibility {

    private final Map<String, ConcurrentLinkedQueue<Pending>> pending = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> applied;
    private final long[] visibleNanos;
    private final AtomicLong warmAcks = new AtomicLong();
    private final AtomicLong warmVisible = new AtomicLong();
    private final AtomicLong measuredAcks = new AtomicLong();
    private final AtomicLong measuredVisible = new AtomicLong();
    private final AtomicLong lastVisible = new AtomicLong();
    private final Thread watcher;

    LoadVisibility(Map<String, AtomicLong> applied, int n) {
        this.applied = applied;
        this.visibleNanos = new long[n];
        this.watcher = new Thread(this::watch, "visibility");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** {@code W|M index space seq publishedMicros}. */
    void add(String ack) {
        String[] f = ack.split(" ");
        boolean measured = "M".equals(f[0]);
        (measured ? measuredAcks : warmAcks).incrementAndGet();
        pending.computeIfAbsent(f[2], s -> new ConcurrentLinkedQueue<>())
                .add(new Pending(Long.parseLong(f[3]), Long.parseLong(f[4]), Integer.parseInt(f[1]), measured));
    }

    void awaitWarmup() throws InterruptedException {
        awaitAll(warmVisible, warmAcks.get());
    }

    /** Waits until every measured acknowledged request is queryable; returns how many there were. */
    long awaitMeasured() throws InterruptedException {
        long acks = measuredAcks.get();
        awaitAll(measuredVisible, acks);
        return acks;
    }

    private static void awaitAll(AtomicLong visible, long target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (visible.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException((target - visible.get()) + " requests not queryable after 10 min");
            }
            Thread.sleep(2); // waits for the watcher's count, at its polling resolution
        }
    }

    long lastVisibleMicros() {
        return lastVisible.get();
    }

    Map<String, Object> percentiles() {
        return HarnessSupport.percentiles(visibleNanos);
    }

    void stop() {
        watcher.interrupt();
    }

    private void watch() {
        while (!Thread.currentThread().isInterrupted()) {
            long now = LoadGenerator.micros();
            for (Map.Entry<String, ConcurrentLinkedQueue<Pending>> e : pending.entrySet()) {
                AtomicLong seq = applied.get(e.getKey());
                if (seq != null && !e.getValue().isEmpty()) {
                    long at = seq.get();
                    e.getValue().removeIf(p -> {
                        if (p.seq > at) {
                            return false;
                        }
                        recordVisible(p, now);
                        return true;
                    });
                }
            }
            try {
                Thread.sleep(1); // polling resolution of the latency measurement, not a wait for a condition
            } catch (InterruptedException ie) {
                return;
            }
        }
    }

    private void recordVisible(Pending p, long now) {
        if (p.measured) {
            visibleNanos[p.index] = Math.max(1, (now - p.t0Micros) * 1_000);
            lastVisible.accumulateAndGet(now, Math::max);
            measuredVisible.incrementAndGet();
        } else {
            warmVisible.incrementAndGet();
        }
    }

    /** An acknowledged request waiting to become queryable. */
    private record Pending(long seq, long t0Micros, int index, boolean measured) {}
}
