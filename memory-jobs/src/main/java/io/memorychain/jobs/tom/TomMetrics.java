package io.memorychain.jobs.tom;

import io.memorychain.jobs.JobMetrics;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the ToM job since start (thread-safe): its runs' and, in {@link #job()}, its loop's. */
public final class TomMetrics extends JobMetrics {

    final LongAdder runs = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder skippedNoModel = new LongAdder();
    final LongAdder emptyAnswers = new LongAdder();

    /** Runs planned and executed (model called or skipped). */
    public long runs() {
        return runs.sum();
    }

    /** Insights the model returned that failed the constraints (first person, too long, beyond 3, ...). */
    public long dropped() {
        return dropped.sum();
    }

    /** Runs not done because no model is configured. */
    public long skippedNoModel() {
        return skippedNoModel.sum();
    }

    /** Runs whose answer had no acceptable insight: nothing published. */
    public long emptyAnswers() {
        return emptyAnswers.sum();
    }

    /** Live event records that could not be decoded (logged, sent to the dead-letter topic, skipped). */
    public long undecodable() {
        return job().undecodable();
    }

    /** Events partitions assigned to this instance now (their state rebuilt or being rebuilt). */
    public int partitions() {
        return job().partitions();
    }

    /** Records of the assigned events partitions not yet consumed as of the last poll; -1 before the first. */
    public long lag() {
        return job().lag();
    }

    /** Epoch millis of the last poll, 0 before the first. */
    public long lastPollMillis() {
        return job().lastPollMillis();
    }

    /** Epoch millis of the last batch that executed a run (model call or skip), 0 before the first. */
    public long lastRunMillis() {
        return job().lastRunMillis();
    }

    public String summary() {
        long failures = chatFailures().total();
        return runs() + " run(s), " + published() + " insight request(s) published, " + dropped()
                + " insight(s) dropped, " + emptyAnswers() + " empty answer(s), " + failures + " failed call(s), "
                + skippedNoModel() + " skipped: no model";
    }
}
