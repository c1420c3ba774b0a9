package io.memorychain.api.backend;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the serial collector's old generation near its live data (docs/benchmarks.md, "Memory of the embedded
 * service"). On JDK 25 the serial collector grows the old generation for every promotion until {@code -Xmx} before it
 * collects it (JDK 17's collected it whenever it had to grow; the serial collector was reworked since), so a service
 * that ingested for a few minutes kept up to twice its live data committed, at rest too. Every {@link #CHECK_EVERY}
 * this compares the old generation's committed size with what it held after its last full collection, and asks for a
 * full collection when it is {@link #due}: while promotions go on, past half as much again and 32 MiB; once they
 * stopped (quiet between two checks), past a quarter more and 16 MiB. At most one per {@link #MIN_GAP}. With
 * {@code -XX:-ShrinkHeapInSteps} (run.sh) the collection hands the memory back at once. Does nothing under any other
 * collector (they size their old generations themselves) or with {@code memory.heap-release.enabled=false}.
 */
@Context
@Requires(property = "memory.heap-release.enabled", notEquals = "false")
final class HeapRelease implements AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(5);
    static final Duration MIN_GAP = Duration.ofSeconds(60);
    static final long BUSY_SLACK = 32L << 20;
    static final long QUIET_SLACK = 16L << 20;
    /** Old-generation growth between two checks below which promotions count as stopped. */
    static final long QUIET_GROWTH = 1L << 20;

    private static final Logger log = LoggerFactory.getLogger(HeapRelease.class);

    /** What the check reads of the old generation, and how it collects. */
    interface OldGeneration {
        long committed();

        long used();

        /** Bytes in use right after the last full collection (0 before the first). */
        long liveAfterLastCollection();

        void collect();
    }

    private final OldGeneration old;
    private final LongSupplier nanoTime;
    private final ScheduledExecutorService timer;
    private long lastCollection;
    private boolean collected;
    private long lastUsed = -1;

    HeapRelease() {
        this(serialOldGeneration().orElse(null), System::nanoTime);
    }

    HeapRelease(OldGeneration old, LongSupplier nanoTime) {
        this.old = old;
        this.nanoTime = nanoTime;
        if (old == null) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heap-release");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(
                this::checkQuietly, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Whether an old generation of {@code committed} bytes, {@code live} after its last collection, is due for one:
     * {@code quiet} when no promotions came since the last check.
     */
    static boolean due(long committed, long live, boolean quiet) {
        return quiet ? committed > live + live / 4 + QUIET_SLACK : committed > live + live / 2 + BUSY_SLACK;
    }

    /** One check: collects when due and the last collection it asked for is {@link #MIN_GAP} old. */
    boolean check() {
        long committed = old.committed();
        long live = old.liveAfterLastCollection();
        long used = old.used();
        boolean quiet = lastUsed >= 0 && used - lastUsed < QUIET_GROWTH;
        lastUsed = used;
        long now = nanoTime.getAsLong();
        if (!due(committed, live, quiet) || collected && now - lastCollection < MIN_GAP.toNanos()) {
            return false;
        }
        old.collect();
        lastCollection = nanoTime.getAsLong();
        collected = true;
        lastUsed = old.used();
        log.debug(
                "old generation: {} MiB committed, {} MiB live after its last collection; collected: {} MiB committed,"
                        + " {} MiB live",
                committed >> 20,
                live >> 20,
                old.committed() >> 20,
                old.liveAfterLastCollection() >> 20);
        return true;
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            log.warn("heap release check failed: {}", e.toString());
        }
    }

    /** The serial collector's old generation ("Tenured Gen"), if this JVM runs that collector. */
    static Optional<OldGeneration> serialOldGeneration() {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getName().equals("Tenured Gen"))
                .findFirst()
                .map(HeapRelease::of);
    }

    private static OldGeneration of(MemoryPoolMXBean pool) {
        return new OldGeneration() {
            @Override
            public long committed() {
                return pool.getUsage().getCommitted();
            }

            @Override
            public long used() {
                return pool.getUsage().getUsed();
            }

            @Override
            public long liveAfterLastCollection() {
                return pool.getCollectionUsage().getUsed();
            }

            @Override
            public void collect() {
                System.gc();
            }
        };
    }

    @Override
    @PreDestroy
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
