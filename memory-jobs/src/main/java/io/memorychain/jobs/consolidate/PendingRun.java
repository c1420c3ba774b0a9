package io.memorychain.jobs.consolidate;

import io.memorychain.avro.MemoryEmbedding;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A consolidation run that is due but may wait for vectors (docs/architecture.md §12). The job reads two topics, events
 * and embeddings, and a live run and a replay after a crash see their records interleaved differently. So a run does
 * not plan on whichever vectors happen to have arrived: it plans on the space's memories as they stand at the event
 * that made it due (the job holds the space's later events back meanwhile), lists the candidates (mergeable but for a
 * vector, written within the recency window) whose vector of their current content has not arrived, and plans once each
 * has. The embedder writes a space's vectors in chain order, each with the seq of the event it embedded, so once a
 * vector of the run's model at or after the run's event has been read, a vector still awaited will never come (the
 * embedder skipped it) and the run plans without it. Either way a replay plans the same run from the same memories and
 * vectors.
 *
 * <p><b>Live:</b> a run was already executed before a restart only if every record it depends on (its event, the
 * vectors it uses, the vector that showed the embedder had passed it) was below the committed offsets; it is executed
 * again (with the same request ids) as soon as one of them was not.
 */
public final class PendingRun {

    private final Instant at;
    private final long seq;
    private final String modelId;
    /** memory id -> the content hash whose vector is awaited. */
    private final Map<String, String> waiting;

    private boolean live;

    PendingRun(Instant at, long seq, String modelId, Map<String, String> waiting, boolean live) {
        this.at = Objects.requireNonNull(at, "at");
        this.seq = seq;
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        this.waiting = new HashMap<>(waiting);
        this.live = live;
    }

    /** The chain time of the event that made the run due: the run's time. */
    public Instant at() {
        return at;
    }

    /** Notes the vector's arrival if the run waits for it (the job's store keeps the vector itself). */
    public void offer(MemoryEmbedding embedding, boolean fromLiveRecord) {
        String id = embedding.getMemoryId();
        if (modelId.equals(embedding.getModelId()) && embedding.getContentHash().equals(waiting.get(id))) {
            waiting.remove(id);
            live |= fromLiveRecord;
        }
    }

    /** Every awaited vector has arrived. */
    public boolean ready() {
        return waiting.isEmpty();
    }

    /**
     * Ready, or the embedder has got past the run's event (a vector at seq {@code embeddedSeq} >= the run's was read);
     * in the second case the run is live if that vector's record was: {@code lastStateOnlySeq} is the highest seq read
     * from records below the committed offset.
     */
    public boolean complete(long embeddedSeq, long lastStateOnlySeq) {
        if (ready()) {
            return true;
        }
        if (embeddedSeq < seq) {
            return false;
        }
        live |= lastStateOnlySeq < seq;
        return true;
    }

    /** Vectors still awaited. */
    public int waiting() {
        return waiting.size();
    }

    /** Whether the run depends on a record at or after the committed offsets: it may not have been executed yet. */
    public boolean live() {
        return live;
    }
}
