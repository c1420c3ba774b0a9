package io.memorychain.projector.search;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search indexes of the projection tasks running in this process, one per events partition. A task opens its
 * index when it is (re)assigned, which rebuilds it from the task's stores, and releases it when the task closes;
 * the read side finds the index of a space through the space's partition.
 *
 * <p>Several processors of one task share its index: the first {@link #open} creates and rebuilds it, later ones
 * get the same instance, and the index closes when the last of them {@link #release releases} it.
 *
 * @see MemoryIndex
 */
public final class SearchIndexes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SearchIndexes.class);

    private final IndexSettings settings;
    private final String modelId;
    private final boolean inMemory;
    private final Map<Integer, Shared> byPartition = new ConcurrentHashMap<>();

    private SearchIndexes(IndexSettings settings, String modelId, boolean inMemory) {
        this.settings = settings;
        this.modelId = modelId;
        this.inMemory = inMemory;
    }

    /**
     * Memory-mapped indexes in a folder of each task's state directory (production).
     *
     * @param modelId the embedder model whose vectors the indexes hold; vectors of other models are ignored
     */
    public static SearchIndexes onDisk(IndexSettings settings, String modelId) {
        return new SearchIndexes(settings, modelId, false);
    }

    /** Heap indexes (tests). */
    public static SearchIndexes inMemory(IndexSettings settings, String modelId) {
        return new SearchIndexes(settings, modelId, true);
    }

    /** The embedding model id the indexes accept vectors of. */
    public String modelId() {
        return modelId;
    }

    public IndexSettings settings() {
        return settings;
    }

    /**
     * The partition's index: opened and filled by the first caller (typically with {@link MemoryIndex#rebuild} from
     * the task's stores), shared with later ones.
     *
     * @param taskDir the task's state directory (the index lives in its {@code search-index} folder)
     */
    public synchronized MemoryIndex open(int partition, Path taskDir, Consumer<MemoryIndex> fill) {
        Shared shared = byPartition.get(partition);
        if (shared == null) {
            MemoryIndex index = inMemory ? MemoryIndex.inMemory(settings)
                    : MemoryIndex.onDisk(taskDir.resolve("search-index"), settings);
            try {
                log.info("Rebuilding the search index of partition {}", partition);
                fill.accept(index);
                index.refresh();
            } catch (RuntimeException e) {
                index.close();
                throw e;
            }
            shared = new Shared(index);
            byPartition.put(partition, shared);
        }
        shared.users++;
        return shared.index;
    }

    /** Releases one use of the partition's index; the last release closes it. */
    public synchronized void release(int partition) {
        Shared shared = byPartition.get(partition);
        if (shared != null && --shared.users == 0) {
            byPartition.remove(partition);
            shared.index.close();
        }
    }

    /** The partition's index, when a task of this process holds it. */
    public Optional<MemoryIndex> get(int partition) {
        Shared shared = byPartition.get(partition);
        return shared == null ? Optional.empty() : Optional.of(shared.index);
    }

    @Override
    public synchronized void close() {
        byPartition.values().forEach(s -> s.index.close());
        byPartition.clear();
    }

    private static final class Shared {
        final MemoryIndex index;
        int users;

        Shared(MemoryIndex index) {
            this.index = index;
        }
    }
}
