package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryKind;
import io.memorychain.domain.Purges;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSource;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.support.StoreKeys;
import io.memorychain.projector.support.Vectors;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Feeds a task's search index from its stores: a memory is indexed with its embedding when the stored embedding is of
 * the configured model and of the memory's current content, else without one (found by keywords only until its
 * embedding arrives). Blocks are not indexed: they are core memory, always in the agent's context; purged memories
 * (docs/architecture.md §12) are not indexed either.
 */
final class IndexFeed implements IndexSource {

    private final KeyValueStore<String, Memory> memories;
    private final KeyValueStore<String, MemoryEmbedding> embeddings;
    private final String modelId;

    IndexFeed(
            KeyValueStore<String, Memory> memories, KeyValueStore<String, MemoryEmbedding> embeddings, String modelId) {
        this.memories = memories;
        this.embeddings = embeddings;
        this.modelId = modelId;
    }

    static boolean indexable(Memory memory) {
        return memory.getKind() != MemoryKind.BLOCK && !Purges.isPurged(memory);
    }

    boolean accepts(MemoryEmbedding embedding) {
        return modelId.equals(embedding.getModelId());
    }

    /** Indexes this version of the memory (no-op for blocks). */
    void index(MemoryIndex index, Memory memory) {
        if (indexable(memory)) {
            index.upsert(memory, vector(memory));
        }
    }

    /** The embedding of the memory's current content by the configured model, or null. */
    float[] vector(Memory memory) {
        MemoryEmbedding e = embeddings.get(StoreKeys.of(memory.getSpace(), memory.getId()));
        return e != null && accepts(e) && e.getContentHash().equals(memory.getContentHash())
                ? Vectors.toArray(e.getVector())
                : null;
    }

    /** Replaces the index's content with every indexable memory of the task's stores. */
    @Override
    public void rebuild(MemoryIndex index) {
        try (KeyValueIterator<String, Memory> all = memories.all()) {
            index.rebuild(new Iterator<>() {
                private Memory next = advance();

                private Memory advance() {
                    while (all.hasNext()) {
                        KeyValue<String, Memory> kv = all.next();
                        if (indexable(kv.value)) {
                            return kv.value;
                        }
                    }
                    return null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public IndexEntry next() {
                    if (next == null) {
                        throw new NoSuchElementException();
                    }
                    Memory m = next;
                    next = advance();
                    return new IndexEntry(m, vector(m));
                }
            });
        }
    }

    /** Reloads the index's thread order from the indexable memories of the task's stores. */
    @Override
    public void reload(MemoryIndex index) {
        try (KeyValueIterator<String, Memory> all = memories.all()) {
            index.reloadThreads(new Iterator<>() {
                private Memory next = advance();

                private Memory advance() {
                    while (all.hasNext()) {
                        Memory m = all.next().value;
                        if (indexable(m)) {
                            return m;
                        }
                    }
                    return null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public Memory next() {
                    if (next == null) {
                        throw new NoSuchElementException();
                    }
                    Memory m = next;
                    next = advance();
                    return m;
                }
            });
        }
    }
}
