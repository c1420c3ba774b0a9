package io.memorychain.llm;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Failed model calls of a job, by outcome (thread-safe): the one counter the jobs' metrics share. */
public final class ChatFailures {

    private final Map<ChatOutcome, LongAdder> counts = new EnumMap<>(ChatOutcome.class);

    public synchronized void count(ChatOutcome outcome) {
        counts.computeIfAbsent(outcome, o -> new LongAdder()).increment();
    }

    /** Failures with this outcome so far. */
    public synchronized long of(ChatOutcome outcome) {
        LongAdder a = counts.get(outcome);
        return a == null ? 0 : a.sum();
    }

    /** Failures of any outcome so far. */
    public synchronized long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** The outcomes seen with their counts, e.g. {@code {TIMEOUT=1, BAD_RESPONSE=2}}. */
    @Override
    public synchronized String toString() {
        return counts.toString();
    }
}
