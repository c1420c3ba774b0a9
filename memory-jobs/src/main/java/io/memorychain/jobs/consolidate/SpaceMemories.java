package io.memorychain.jobs.consolidate;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.domain.Evolver;
import io.memorychain.events.AccessCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One space's memory state as the consolidation job sees it, rebuilt from {@code memory.events.v1} (every snapshot
 * evolved with the sequencer's {@link Evolver}) and {@code memory.embeddings.v1} (the vector of a memory's content,
 * kept only for the configured model id; a vector is used only while its content hash is the memory's current one, so a
 * stale vector of an edited memory is never compared) and {@code memory.access.v1} (each memory's read count, for the
 * frequently-retrieved pool). Chain time is the latest {@code occurred_at} seen. The memories and vectors themselves
 * live in the job's {@link ConsolidateStore} on disk; this holds only the space's counters, so the job's heap does not
 * grow with the memories.
 *
 * <p>The two topics are read in whatever interleaving the consumer returns, so vectors are kept per content hash: a
 * vector that arrives before the event of its content waits for it, and one of a content the events have already
 * replaced is not kept.
 */
public final class SpaceMemories {

    private final String space;
    private final String modelId;
    private final ConsolidateStore store;
    private int size;
    private int vectorCount;
    private Instant chainTime;
    private long embeddedSeq = -1;
    private long lastStateOnlySeq = -1;

    SpaceMemories(String space, String modelId, ConsolidateStore store) {
        this.space = Objects.requireNonNull(space, "space");
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        this.store = Objects.requireNonNull(store, "store");
    }

    public void onEvent(MemoryEvent event) {
        Map<String, ConsolidateStore.Stored> read = new HashMap<>(2); // each memory read once per event
        Function<String, ConsolidateStore.Stored> stored = id -> read.computeIfAbsent(id, k -> store.memory(space, k));
        List<Evolver.Change> changes = Evolver.evolve(event, id -> {
            ConsolidateStore.Stored s = stored.apply(id);
            return s == null ? null : s.memory();
        });
        for (Evolver.Change change : changes) {
            Memory after = change.after();
            ConsolidateStore.Stored before = stored.apply(after.getId());
            if (before == null) {
                size++;
            }
            long contentSeq = before != null && before.memory().getContentHash().equals(after.getContentHash())
                    ? before.contentSeq()
                    : event.getSeq();
            store.put(space, after, contentSeq);
            read.put(after.getId(), new ConsolidateStore.Stored(after, contentSeq));
            if (contentSeq == event.getSeq()) {
                vectorCount -= store.removeVectorsBefore(space, after.getId(), event.getSeq());
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
        ConsolidateStore.Stored current = store.memory(space, embedding.getMemoryId());
        if (current == null || embedding.getSeq() >= current.contentSeq()) {
            if (store.put(
                    space,
                    embedding.getMemoryId(),
                    embedding.getContentHash(),
                    new ConsolidateStore.Vector(embedding.getSeq(), values(embedding), live))) {
                vectorCount++;
            }
        }
        return true;
    }

    /** Counts one access record's reads ({@link AccessCounts}, the rule the decay views and the lifecycle share). */
    public void onAccess(MemoryAccess access) {
        AccessCounts.apply(access, id -> store.access(space, id), (id, stats) -> store.putAccess(space, id, stats));
    }

    /** How often the memory was read (0 when never). */
    public long reads(String id) {
        AccessStats stats = store.access(space, id);
        return stats == null ? 0L : stats.getCount();
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
        return size;
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
     * A run due at the chain time {@code at} of the event at {@code seq}, over the memories as they stand now: it waits
     * for the vectors of the candidates (mergeable but for a vector, written at or after {@code at - recency}) whose
     * current content is not embedded yet. The caller holds the space's later events back until the run is planned, so
     * that it plans on the memories of its time.
     */
    public PendingRun pendingRun(Instant at, long seq, Duration recency, boolean live) {
        Map<String, String> waiting = new HashMap<>();
        forEachCandidate(at, recency, m -> {
            if (vector(m) == null) {
                waiting.put(m.getId(), m.getContentHash());
            }
        });
        return new PendingRun(at, seq, modelId, waiting, live);
    }

    /**
     * The candidates a run at {@code at} plans with (active, semantic, neither constitutional nor pinned, written at or
     * after {@code at - recency}), each with its vector when it is of its current content and its texts decrypted by
     * {@code decrypt}; and whether any vector used came from a live record.
     */
    public Candidates candidates(Instant at, Duration recency, UnaryOperator<Memory> decrypt) {
        List<MemoryItem> items = new ArrayList<>();
        boolean[] usesLive = {false};
        forEachCandidate(at, recency, m -> {
            ConsolidateStore.Vector v = vector(m);
            usesLive[0] |= v != null && v.live();
            items.add(item(decrypt.apply(m), v));
        });
        return new Candidates(items, usesLive[0]);
    }

    /** Each memory a run at {@code at} may merge: a {@link #candidate} written at or after {@code at - recency}. */
    private void forEachCandidate(Instant at, Duration recency, Consumer<Memory> action) {
        Instant from = at.minus(recency);
        store.forEachMemory(space, stored -> {
            Memory m = stored.memory();
            if (candidate(m) && !m.getUpdatedAt().isBefore(from)) {
                action.accept(m);
            }
        });
    }

    /** A run's candidates, and whether a vector among them came from a live record. */
    public record Candidates(List<MemoryItem> items, boolean usesLive) {}

    /** Every known memory as a {@link MemoryItem}, with its vector when the vector is of its current content. */
    public List<MemoryItem> items() {
        List<MemoryItem> items = new ArrayList<>(size);
        store.forEachMemory(space, stored -> items.add(item(stored.memory(), vector(stored.memory()))));
        return items;
    }

    /** {@link MemoryItem#candidate()}: the one rule of what may be merged. */
    private static boolean candidate(Memory m) {
        return item(m, null).candidate();
    }

    private ConsolidateStore.Vector vector(Memory m) {
        return store.vector(space, m.getId(), m.getContentHash());
    }

    private static MemoryItem item(Memory m, ConsolidateStore.Vector v) {
        return new MemoryItem(
                m.getId(),
                m.getVersion(),
                m.getKind() == MemoryKind.SEMANTIC,
                m.getContent(),
                m.getImportance(),
                m.getState() == MemoryState.ACTIVE,
                m.getConstitutional(),
                m.getPinned(),
                m.getCreatedAt(),
                m.getUpdatedAt(),
                v == null ? null : v.values());
    }
}
