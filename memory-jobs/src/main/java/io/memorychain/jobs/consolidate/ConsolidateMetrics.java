package io.memorychain.jobs.consolidate;

import io.memorychain.jobs.JobMetrics;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the consolidation job (its runs' and, in {@link #job()}, its loop's), logged on stop and printed by the
 * benchmark.
 */
public final class ConsolidateMetrics extends JobMetrics {

    final LongAdder runs = new LongAdder();
    final LongAdder nearExact = new LongAdder();
    final LongAdder checked = new LongAdder();
    final LongAdder sameFact = new LongAdder();
    final LongAdder calls = new LongAdder();
    final LongAdder tokens = new LongAdder();
    final LongAdder invalidAnswers = new LongAdder();
    /**
     * Memories and vectors the job holds in its store on disk: every memory of every space it reads, and its vector.
     */
    final AtomicLong memoriesHeld = new AtomicLong();

    final AtomicLong vectorsHeld = new AtomicLong();
    /** Events read while their space's run waits for the embedder's vectors, kept in the store until it is planned. */
    final AtomicLong eventsWaiting = new AtomicLong();

    public long runs() {
        return runs.sum();
    }

    public long nearExact() {
        return nearExact.sum();
    }

    public long checked() {
        return checked.sum();
    }

    public long sameFact() {
        return sameFact.sum();
    }

    public long calls() {
        return calls.sum();
    }

    public long tokens() {
        return tokens.sum();
    }

    public long invalidAnswers() {
        return invalidAnswers.sum();
    }

    public long memoriesHeld() {
        return memoriesHeld.get();
    }

    public long vectorsHeld() {
        return vectorsHeld.get();
    }

    public long eventsWaiting() {
        return eventsWaiting.get();
    }

    /** Records read from the events and embeddings topics (state rebuilds included). */
    public long recordsRead() {
        return job().recordsRead();
    }

    public synchronized String summary() {
        return "runs=" + runs() + " nearExact=" + nearExact() + " checked=" + checked() + " sameFact=" + sameFact()
                + " llmCalls=" + calls() + " llmTokens=" + tokens() + " invalidAnswers=" + invalidAnswers()
                + " failures=" + chatFailures() + " published=" + published() + " memoriesHeld=" + memoriesHeld()
                + " vectorsHeld=" + vectorsHeld() + " eventsWaiting=" + eventsWaiting();
    }
}
