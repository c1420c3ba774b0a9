package io.memorychain.consolidate;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.Evolver;
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
 */
public final class SpaceMemories {

    private record Vector(String contentHash, float[] values) {
    }

    private final String modelId;
    private final Map<String, Memory> memories = new HashMap<>();
    private final Map<String, Vector> vectors = new HashMap<>();
    private Instant chainTime;

    public SpaceMemories(String modelId) {
        this.modelId = Objects.requireNonNull(modelId, "modelId");
    }

    public void onEvent(MemoryEvent event) {
        for (Evolver.Change change : Evolver.evolve(event, memories::get)) {
            memories.put(change.after().getId(), change.after());
        }
        if (chainTime == null || event.getOccurredAt().isAfter(chainTime)) {
            chainTime = event.getOccurredAt();
        }
    }

    /** Keeps the vector when it is of this job's model; false when ignored (another model). */
    public boolean onEmbedding(MemoryEmbedding embedding) {
        if (!modelId.equals(embedding.getModelId())) {
            return false;
        }
        List<Float> boxed = embedding.getVector();
        float[] values = new float[boxed.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = boxed.get(i);
        }
        vectors.put(embedding.getMemoryId(), new Vector(embedding.getContentHash(), values));
        return true;
    }

    /** Chain time: the latest {@code occurred_at} of the space's events, null before the first. */
    public Instant chainTime() {
        return chainTime;
    }

    /** Every known memory as a {@link MemoryItem}, with its vector when the vector is of its current content. */
    public List<MemoryItem> items() {
        List<MemoryItem> items = new ArrayList<>(memories.size());
        for (Memory m : memories.values()) {
            Vector v = vectors.get(m.getId());
            float[] values = v != null && v.contentHash().equals(m.getContentHash()) ? v.values() : null;
            items.add(new MemoryItem(m.getId(), m.getVersion(), m.getKind() == MemoryKind.SEMANTIC, m.getContent(),
                    m.getImportance(), m.getState() == MemoryState.ACTIVE, m.getConstitutional(), m.getPinned(),
                    m.getCreatedAt(), m.getUpdatedAt(), values));
        }
        return items;
    }
}
