package io.memorychain.jobs;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What a {@link ChainJob}'s loop counts since start, for /health and /prometheus (thread-safe). */
public final class JobFigures {

    final LongAdder recordsRead = new LongAdder();
    final LongAdder published = new LongAdder();
    final LongAdder undecodable = new LongAdder();
    final AtomicInteger partitions = new AtomicInteger();
    final AtomicLong lag = new AtomicLong(-1);
    final AtomicLong lastPollMillis = new AtomicLong();
    final AtomicLong lastRunMillis = new AtomicLong();

    /** Records read from the input topics (state rebuilds included). */
    public long recordsRead() {
        return recordsRead.sum();
    }

    /** Requests published. */
    public long published() {
        return published.sum();
    }

    /** Live records that could not be decoded (logged, sent to the dead-letter topic, skipped). */
    public long undecodable() {
        return undecodable.sum();
    }

    /** Input partitions assigned to this instance now (their state rebuilt or being rebuilt). */
    public int partitions() {
        return partitions.get();
    }

    /** Records of the assigned partitions not yet consumed as of the last poll; -1 before the first. */
    public long lag() {
        return lag.get();
    }

    /** Epoch millis of the last poll (the job's "check"), 0 before the first. */
    public long lastPollMillis() {
        return lastPollMillis.get();
    }

    /** Epoch millis of the last batch that executed work, 0 before the first. */
    public long lastRunMillis() {
        return lastRunMillis.get();
    }
}
