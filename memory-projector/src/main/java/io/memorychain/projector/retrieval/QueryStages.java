package io.memorychain.projector.retrieval;

/**
 * Where a query spends its time, stage by stage: {@code embed} (the query's vector), {@code search} (the index's
 * keyword and vector channels), {@code fuse} (signals, thread context, dates and the reranker), {@code rank} (decay and
 * filters over the candidates' stored memories, decrypting their texts) and {@code pack} (related memories, token
 * budget, the recorded accesses). The HTTP layer answers them as a {@code Server-Timing} header.
 */
@FunctionalInterface
public interface QueryStages {

    /** Records nothing. */
    QueryStages NONE = (stage, nanos) -> {};

    void record(String stage, long nanos);

    /** Records {@code stage} as ending now, from {@code startNanos}; returns now. */
    default long since(String stage, long startNanos) {
        long now = System.nanoTime();
        record(stage, now - startNanos);
        return now;
    }
}
