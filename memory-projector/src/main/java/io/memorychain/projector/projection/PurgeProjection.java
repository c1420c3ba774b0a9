package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Relation;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.Purges;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.support.StoreKeys;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What a {@code MemoryPurged} (or {@code MemoryErased}) event does to the views (docs/architecture.md §6, §12): the
 * memory store keeps only the tombstone (the Evolver already replaced its text by {@link Purges#MARKER}); this removes
 * the memory from the search index, the embeddings view and the relation stores, and replaces its text by the marker in
 * its history entries, in the audit descriptions of the events that touched it and in its thread changes, so no view
 * serves the text any more. Deterministic: a replay of the chain gives the same stores.
 */
final class PurgeProjection {

    private final KeyValueStore<String, MemoryEmbedding> embeddings;
    private final KeyValueStore<String, HistoryEntry> history;
    private final KeyValueStore<String, AuditEntry> audit;
    private final KeyValueStore<String, Relation> relations;
    private final KeyValueStore<String, Relation> relationsIn;
    private final KeyValueStore<String, ThreadChange> threadChanges;

    PurgeProjection(
            KeyValueStore<String, MemoryEmbedding> embeddings,
            KeyValueStore<String, HistoryEntry> history,
            KeyValueStore<String, AuditEntry> audit,
            KeyValueStore<String, Relation> relations,
            KeyValueStore<String, Relation> relationsIn,
            KeyValueStore<String, ThreadChange> threadChanges) {
        this.embeddings = embeddings;
        this.history = history;
        this.audit = audit;
        this.relations = relations;
        this.relationsIn = relationsIn;
        this.threadChanges = threadChanges;
    }

    /**
     * @param tombstone the purged memory's snapshot after the event
     * @param updateStrength recomputes a memory's strongest edge (space, id) once its edges changed
     */
    void apply(Memory tombstone, MemoryIndex index, BiConsumer<String, String> updateStrength) {
        String space = tombstone.getSpace();
        String id = tombstone.getId();
        index.delete(space, id);
        if (Purges.isErased(tombstone)) {
            index.expungeDeletes(); // rare and explicit: the text must leave the index files now, not at a merge
        }
        embeddings.delete(StoreKeys.of(space, id));
        for (String neighbour : removeEdges(space, id)) {
            updateStrength.accept(space, neighbour);
        }
        updateStrength.accept(space, id);
        scrubHistoryAndAudit(space, id);
        scrubThreadChanges(space, id, ThreadChanges.thread(tombstone), tombstone.getContent());
    }

    /** Deletes every edge from or to the memory, both ways; returns the memories at their other ends. */
    private Set<String> removeEdges(String space, String id) {
        Set<String> neighbours = new LinkedHashSet<>();
        for (KeyValue<String, Relation> kv : scan(relations, StoreKeys.prefix(space, id))) {
            Relation r = kv.value;
            relations.delete(kv.key);
            relationsIn.delete(StoreKeys.of(space, r.getToId(), r.getFromId()));
            neighbours.add(r.getToId());
        }
        for (KeyValue<String, Relation> kv : scan(relationsIn, StoreKeys.prefix(space, id))) {
            Relation r = kv.value;
            relationsIn.delete(kv.key);
            relations.delete(StoreKeys.of(space, r.getFromId(), r.getToId()));
            neighbours.add(r.getFromId());
        }
        neighbours.remove(id);
        return neighbours;
    }

    /** Every history entry of the memory with its snapshots scrubbed; the snippets of its text cut from the audit. */
    private void scrubHistoryAndAudit(String space, String id) {
        for (KeyValue<String, HistoryEntry> kv : scan(history, StoreKeys.prefix(space, id))) {
            HistoryEntry entry = kv.value;
            List<String> texts = new ArrayList<>(4);
            for (Memory m : new Memory[] {entry.getBefore(), entry.getAfter()}) {
                if (m != null && !Purges.MARKER.equals(m.getContent())) {
                    texts.add(EventDescriptions.snippet(m.getContent()));
                    if (m.getSummary() != null) {
                        texts.add(EventDescriptions.snippet(m.getSummary()));
                    }
                }
            }
            Purges.scrub(entry.getBefore());
            Purges.scrub(entry.getAfter());
            history.put(kv.key, entry);
            String auditKey = StoreKeys.of(space, StoreKeys.seq(entry.getSeq()));
            AuditEntry line = audit.get(auditKey);
            if (line != null && !texts.isEmpty()) {
                String description = line.getDescription();
                for (String text : texts) {
                    description = description.replace(text, Purges.MARKER);
                }
                if (!description.equals(line.getDescription())) {
                    line.setDescription(description);
                    audit.put(auditKey, line);
                }
            }
        }
    }

    /** The memory's thread changes read as its tombstone ({@code [purged]} or {@code [erased]}); markers stay. */
    private void scrubThreadChanges(String space, String id, String thread, String marker) {
        for (KeyValue<String, ThreadChange> kv : scan(threadChanges, StoreKeys.prefix(space, thread))) {
            String text = kv.value.getText();
            if (id.equals(kv.value.getMemoryId()) && !Purges.MARKER.equals(text) && !Purges.ERASED.equals(text)) {
                kv.value.setText(marker);
                threadChanges.put(kv.key, kv.value);
            }
        }
    }

    /** The entries under a prefix, read before any is changed (RocksDB iterators and writes do not mix well). */
    private static <V> List<KeyValue<String, V>> scan(KeyValueStore<String, V> store, String prefix) {
        List<KeyValue<String, V>> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = store.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
