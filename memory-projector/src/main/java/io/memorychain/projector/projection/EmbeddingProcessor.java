package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.domain.Purges;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.support.StoreKeys;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins embeddings ({@code memory.embeddings.v1}) to the memories of the same task: keeps the latest embedding of each
 * memory for the configured model and indexes the memory with it when it belongs to the memory's current content.
 * Order-independent: an embedding that arrives before its event waits in the store and is picked up when the event is
 * projected, so replays give the same views and index whatever the interleaving of the two topics.
 */
final class EmbeddingProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingProcessor.class);

    private final RecordDecoder<MemoryEmbedding> decoder;
    private final SearchIndexes indexes;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Memory> memories;
    private KeyValueStore<String, MemoryEmbedding> embeddings;
    private IndexFeed feed;
    private IndexPosition position;
    private MemoryIndex index;

    EmbeddingProcessor(AvroWireSerde<MemoryEmbedding> serde, SearchIndexes indexes) {
        this.decoder = new RecordDecoder<>(serde);
        this.indexes = indexes;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        memories = context.getStateStore(ProjectionTopology.MEMORIES);
        embeddings = context.getStateStore(ProjectionTopology.EMBEDDINGS);
        feed = new IndexFeed(memories, embeddings, indexes.modelId());
        position = new IndexPosition(context);
        index = position.open(indexes, feed);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        position.advance(IndexPosition.EMBEDDINGS, index);
        MemoryEmbedding embedding = decoder.decode(record, context);
        if (embedding == null) {
            return;
        }
        if (!feed.accepts(embedding)) {
            log.debug(
                    "Ignoring an embedding of {}/{} by model {} (indexes use {})",
                    embedding.getSpace(),
                    embedding.getMemoryId(),
                    embedding.getModelId(),
                    indexes.modelId());
            return;
        }
        String problem = problem(embedding);
        if (problem != null) {
            log.error(
                    "Unusable embedding of {}/{}: {}; moved to the dead-letter topic",
                    embedding.getSpace(),
                    embedding.getMemoryId(),
                    problem);
            RecordDecoder.deadLetter(record, context, new IllegalArgumentException(problem));
            return;
        }
        String key = StoreKeys.of(embedding.getSpace(), embedding.getMemoryId());
        if (Purges.isPurged(memories.get(key))) {
            return; // a late embedding of a purged memory's old content: not kept
        }
        MemoryEmbedding stored = embeddings.get(key);
        if (stored != null && feed.accepts(stored) && stored.getSeq() > embedding.getSeq()) {
            return; // an embedding of a later version is already here
        }
        embeddings.put(key, embedding);
        Memory memory = memories.get(key);
        if (memory != null && memory.getContentHash().equals(embedding.getContentHash())) {
            feed.index(index, memory);
        }
    }

    private String problem(MemoryEmbedding e) {
        if (e.getVector().size() != indexes.settings().dimensions()) {
            return "vector has " + e.getVector().size() + " dimensions, the index "
                    + indexes.settings().dimensions();
        }
        double norm = 0;
        for (float v : e.getVector()) {
            if (!Float.isFinite(v)) {
                return "vector has a non-finite component";
            }
            norm += v * v;
        }
        return norm > 0 ? null : "vector is zero";
    }

    @Override
    public void close() {
        indexes.release(context.taskId().partition());
    }
}
