package io.memorychain.consolidate;

import io.memorychain.llm.ChatFailures;
import io.memorychain.llm.ChatOutcome;
import io.memorychain.projector.job.JobFigures;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the consolidation job (its runs' and, in {@link #job()}, its loop's), logged on stop and printed by the benchmark. */
public final class ConsolidateMetrics {

    final LongAdder runs = new LongAdder();
    final LongAdder nearExact = new LongAdder();
    final LongAdder checked = new LongAdder();
    final LongAdder sameFact = new LongAdder();
    final LongAdder calls = new LongAdder();
    final LongAdder tokens = new LongAdder();
    final LongAdder invalidAnswers = new LongAdder();
    private final JobFigures job = new JobFigures();
    private final ChatFailures failures = new ChatFailures();

    void countFailure(ChatOutcome outcome) {
        failures.count(outcome);
    }

    public long failures(ChatOutcome outcome) {
        return failures.of(outcome);
    }

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

    /** The loop's figures: records read, requests published, lag, partitions, last poll and run. */
    public JobFigures job() {
        return job;
    }

    public long published() {
        return job.published();
    }

    /** Records read from the events and embeddings topics (state rebuilds included). */
    public long recordsRead() {
        return job.recordsRead();
    }

    public synchronized String summary() {
        return "runs=" + runs() + " nearExact=" + nearExact() + " checked=" + checked() + " sameFact=" + sameFact()
                + " llmCalls=" + calls() + " llmTokens=" + tokens() + " invalidAnswers=" + invalidAnswers()
                + " failures=" + failures + " published=" + published();
    }
}
