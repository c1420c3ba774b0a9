package io.memorychain.jobs;

import io.memorychain.llm.ChatFailures;
import io.memorychain.llm.ChatOutcome;

/**
 * What the metrics of every model job (tom, consolidate, reflect) hold (thread-safe): the loop's figures
 * ({@link JobFigures}: records read, lag, partitions, last poll and run, published) and the failed model calls by
 * outcome. Each job's metrics add the counters of its runs.
 */
public abstract class JobMetrics {

    private final JobFigures job = new JobFigures();
    private final ChatFailures failures = new ChatFailures();

    /** Counts one failed model call. */
    public void countFailure(ChatOutcome outcome) {
        failures.count(outcome);
    }

    /** Runs whose model call failed with this outcome. */
    public long failures(ChatOutcome outcome) {
        return failures.of(outcome);
    }

    /** The failed model calls by outcome (their {@code toString} lists them, e.g. {@code {TIMEOUT=1}}). */
    protected ChatFailures chatFailures() {
        return failures;
    }

    /** The loop's figures: records read, lag, partitions, last poll and run. */
    public JobFigures job() {
        return job;
    }

    /** Requests published. */
    public long published() {
        return job.published();
    }
}
