package io.memorychain.consolidate;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.Evolver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One space's memory state as the consolidation job sees it, rebuilt from {@code memory.events.v1} (every snapshot
 * evolved with the sequencer's {@link Evolver}) and {@code memory.embeddings.v1} (the vector of a memory's content,
 * kept only for the configured model id; a vector is used only while its content hash is the memory's current one, so
 * a stale vector of an edited memory is never compared). Chain time is the latest {@code occurred_at} seen.
 *
 * <p>The two topics are read in whatever interleaving the consumer returns, so vectors are kept per content hash: a
 * vector that arrives before the event of its content waits for it, and one of a content the events have already
 * replaced is not kept (a pending run that needs it takes it directly, {@link PendingRun#offer}).
 */
public final class SpaceMemories {

    private record Vector(long seq, float[] values, boolean live) {
    }

    private final String modelId;
    private final Map<String, Memory> memories = new HashMap<>();
    /** memory id -> seq of the event that introduced its current content. */
    private final Map<String, Long> contentSeq = new HashMap<>();
    /** memory id -> content hash -> vector: the current content's and any later content's not yet seen as events. */
    private final Map<String, Map<String, Vector>> vectors = new HashMap<>();
    private int vectorCount;
    private Instant chainTime;
    private long embeddedSeq = -1;
    private long lastStateOnlySeq = -1;

    public SpaceMemories(String modelId) {
        this.modelId = Objects.requireNonNull(modelId, "modelId");
    }

    public void onEvent(MemoryEvent event) {
        for (Evolver.Change change : Evolver.evolve(event, memories::get)) {
            Memory after = change.after();
            Memory before = memories.put(after.getId(), after);
            if (before == null || !before.getContentHash().equals(after.getContentHash())) {
                contentSeq.put(after.getId(), event.getSeq());
                Map<String, Vector> kept = vectors.get(after.getId());
                if (kept != null) {
                    int held = kept.size();
                    kept.values().removeIf(v -> v.seq() < event.getSeq());
                    vectorCount -= held - kept.size();
                }
            }
        }
        if (chainTime == null || event.getOccurredAt().isAfter(chainTime)) {
            chainTime = event.getOccurredAt();
        }
    }

    /**
     * Keeps the vector when it is of this job's model; false when ignored (another model).
     *
     * @param live whether its record is at or after the job's committed offset (see {@link PendingRun#live()})
     */
    public boolean onEmbedding(MemoryEmbedding embedding, boolean live) {
        if (!modelId.equals(embedding.getModelId())) {
            return false;
        }
        embeddedSeq = Math.max(embeddedSeq, embedding.getSeq());
        if (!live) {
            lastStateOnlySeq = Math.max(lastStateOnlySeq, embedding.getSeq());
        }
        Long current = contentSeq.get(embedding.getMemoryId());
        if (current == null || embedding.getSeq() >= current) {
            if (vectors.computeIfAbsent(embedding.getMemoryId(), id -> new HashMap<>(2))
                    .put(embedding.getContentHash(), new Vector(embedding.getSeq(), values(embedding), live)) == null) {
                vectorCount++;
            }
        }
        return true;
    }

    static float[] values(MemoryEmbedding embedding) {
        List<Float> boxed = embedding.getVector();
        float[] values = new float[boxed.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = boxed.get(i);
        }
        return values;
    }

    /** Memories held (every memory of the space the job has seen, whatever its state). */
    public int size() {
        return memories.size();
    }

    /** Vectors held: the current content's of each memory, and any of a later content not yet seen as an event. */
    public int vectorCount() {
        return vectorCount;
    }

    /** Chain time: the latest {@code occurred_at} of the space's events, null before the first. */
    public Instant chainTime() {
        return chainTime;
    }

    /** The highest seq of the vectors of this model seen: the embedder has written everything before it. */
    public long embeddedSeq() {
        return embeddedSeq;
    }

    /** The highest seq of the vectors of this model read from records below the committed offset (state only). */
    public long lastStateOnlySeq() {
        return lastStateOnlySeq;
    }

    /**
     * A run due at the chain time {@code at} of the event at {@code seq}: the memories as they stand now, waiting for
     * the vectors of the candidates (mergeable but for a vector, written at or after {@code at - recency}) whose
     * current content is not embedded yet. It is live if its event is, or a vector it uses came from a live record.
     */
    public PendingRun pendingRun(Instant at, long seq, Duration recency, boolean live) {
        List<MemoryItem> items = new ArrayList<>(memories.size());
        Map<String, String> waiting = new HashMap<>();
        boolean usesLive = live;
        Instant from = at.minus(recency);
        for (Memory m : memories.values()) {
            Vector v = vector(m);
            MemoryItem item = item(m, v);
            items.add(item);
            if (!item.candidate() || item.updatedAt().isBefore(from)) {
                continue;
            }
            if (v == null) {
                waiting.put(m.getId(), m.getContentHash());
            } else {
                usesLive |= v.live();
            }
        }
        return new PendingRun(at, seq, modelId, items, waiting, usesLive);
    }

    /** Every known memory as a {@link MemoryItem}, with its vector when the vector is of its current content. */
    public List<MemoryItem> items() {
        List<MemoryItem> items = new ArrayList<>(memories.size());
        for (Memory m : memories.values()) {
            items.add(item(m, vector(m)));
        }
        return items;
    }

    private Vector vector(Memory m) {
        Map<String, Vector> kept = vectors.get(m.getId());
        return kept == null ? null : kept.get(m.getContentHash());
    }

    private static MemoryItem item(Memory m, Vector v) {
        return new MemoryItem(m.getId(), m.getVersion(), m.getKind() == MemoryKind.SEMANTIC, m.getContent(),
                m.getImportance(), m.getState() == MemoryState.ACTIVE, m.getConstitutional(), m.getPinned(),
                m.getCreatedAt(), m.getUpdatedAt(), v == null ? null : v.values());
    }
}
