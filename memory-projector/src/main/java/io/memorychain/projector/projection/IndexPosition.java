package io.memorychain.projector.projection;

import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchIndexes;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The position of a projection task's input, kept in {@link ProjectionTopology#INDEX_POSITION} (logged, so restored
 * with the other stores) and in the task's search index: the offset of the last record processed from each of the two
 * inputs that write the index. {@link SearchIndexes} reuses an index on disk only when it was committed at the position
 * the stores were restored at (docs/architecture.md §6).
 */
final class IndexPosition {

    /** The events partition of the task. */
    static final String EVENTS = "events";
    /** The embeddings partition of the task. */
    static final String EMBEDDINGS = "embeddings";

    private final KeyValueStore<String, Long> store;
    private final ProcessorContext<?, ?> context;

    IndexPosition(ProcessorContext<?, ?> context) {
        this.context = context;
        this.store = context.getStateStore(ProjectionTopology.INDEX_POSITION);
    }

    /** The position the task's stores stand at (empty before the first record). */
    Map<String, Long> stored() {
        Map<String, Long> at = new TreeMap<>();
        for (String source : new String[] {EVENTS, EMBEDDINGS}) {
            Long offset = store.get(source);
            if (offset != null) {
                at.put(source, offset);
            }
        }
        return at;
    }

    /** Opens the task's index at the stores' position (reused or rebuilt by {@code indexes}). */
    MemoryIndex open(SearchIndexes indexes, IndexFeed feed) {
        return indexes.open(context.taskId().partition(), context.stateDir().toPath(), stored(), feed);
    }

    /** Records the current record of {@code source} as processed, in the store and the index, before its writes. */
    void advance(String source, MemoryIndex index) {
        context.recordMetadata().ifPresent(record -> {
            store.put(source, record.offset());
            index.advance(source, record.offset());
        });
    }
}
