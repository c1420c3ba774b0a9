package io.memorychain.jobs.reflect;

import io.memorychain.jobs.JobMetrics;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the reflection job (its runs' and, in {@link #job()}, its loop's). */
public final class ReflectMetrics extends JobMetrics {

    final LongAdder runs = new LongAdder();
    final LongAdder proposed = new LongAdder();
    final LongAdder skippedNoModel = new LongAdder();
    final LongAdder calls = new LongAdder();
    final LongAdder outputTokens = new LongAdder();
    final LongAdder capReached = new LongAdder();
    final LongAdder droppedChanges = new LongAdder();
    final LongAdder milestones = new LongAdder();

    public long runs() {
        return runs.sum();
    }

    /** Runs that published a pending reflection. */
    public long proposed() {
        return proposed.sum();
    }

    public long skippedNoModel() {
        return skippedNoModel.sum();
    }

    public long calls() {
        return calls.sum();
    }

    /** Completion tokens over all runs. */
    public long outputTokens() {
        return outputTokens.sum();
    }

    /** Runs that stopped early at the output token cap. */
    public long capReached() {
        return capReached.sum();
    }

    /** Proposed changes the validator dropped (unknown ids, blank content, repeated targets, unknown labels). */
    public long droppedChanges() {
        return droppedChanges.sum();
    }

    /** Proposed reflections that were evolution milestones (the 10th, 25th, 50th, 100th of a space). */
    public long milestones() {
        return milestones.sum();
    }

    public synchronized String summary() {
        return "runs=" + runs() + " proposed=" + proposed() + " skippedNoModel=" + skippedNoModel() + " llmCalls="
                + calls() + " outputTokens=" + outputTokens() + " capReached=" + capReached() + " droppedChanges="
                + droppedChanges() + " milestones=" + milestones() + " failures=" + chatFailures() + " published="
                + published();
    }
}
