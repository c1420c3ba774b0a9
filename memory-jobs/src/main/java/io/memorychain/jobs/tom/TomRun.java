package io.memorychain.jobs.tom;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One ToM run of a thread, planned from the chain alone (so a replay plans the same runs): the inputs collected since
 * the thread's previous run, and the coordinates of the chain range they came from.
 *
 * @param space the space (one chain)
 * @param thread the conversation thread, "" for memories outside threads
 * @param fromSeq seq of the first input event covered
 * @param toSeq seq of the event that triggered the run (the last input covered)
 * @param triggeredAt that event's {@code occurred_at} (chain time, never the wall clock)
 * @param items input events covered (may exceed the inputs kept)
 * @param activity the latest activity items, oldest first (N <= 5)
 * @param semantic the newest semantic items, oldest first (K <= 3)
 * @param snippet the recent conversation (episodic memories of the thread), at most 1,000 characters
 */
public record TomRun(
        String space,
        String thread,
        long fromSeq,
        long toSeq,
        Instant triggeredAt,
        int items,
        List<String> activity,
        List<String> semantic,
        String snippet) {

    public TomRun {
        Objects.requireNonNull(space, "space");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(triggeredAt, "triggeredAt");
        activity = List.copyOf(activity);
        semantic = List.copyOf(semantic);
        Objects.requireNonNull(snippet, "snippet");
        if (fromSeq < 1 || toSeq < fromSeq) {
            throw new IllegalArgumentException("bad seq range " + fromSeq + "-" + toSeq);
        }
    }

    /**
     * The deterministic request id of the run's {@code index}-th insight: {@code tom:<space>:<thread or
     * ->:<from>-<to>:<i>}. A replay plans the same run and so publishes the same ids, which the sequencer deduplicates.
     */
    public String requestId(int index) {
        return "tom:" + space + ":" + (thread.isEmpty() ? "-" : thread) + ":" + fromSeq + "-" + toSeq + ":" + index;
    }
}
