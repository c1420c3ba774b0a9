package io.memorychain.projector.search;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search indexes of the projection tasks running in this process, one per events partition. A task opens its index
 * when it is (re)assigned and releases it when the task closes; the read side finds the index of a space through the
 * space's partition.
 *
 * <p><b>Reuse across restarts</b> (docs/architecture.md §6): the processors that write an index also record, in a
 * logged store of their task, the position of the input they have processed (the offset of the last record of each
 * input partition), and tell the index the same ({@link MemoryIndex#advance}). When the last processor of a task
 * releases the index, it is committed with that position and its identity ({@link #commitData}: document format,
 * embedding model, settings). When the task opens again, the index on disk is reused only if its last commit carries
 * exactly the position the task's stores were restored at and the same identity, and its files pass their checksums;
 * otherwise it is rebuilt from the stores. The stores and the index are both functions of the input up to their
 * position, so an equal position means an equal content; a store rolled back or restored to another position (an
 * aborted transaction, an unclean stop: under exactly-once Streams then wipes the task folder, the index with it), an
 * index committed ahead of its stores, a damaged index or another model all rebuild.
 *
 * <p>Several processors of one task share its index: the first {@link #open} reopens or rebuilds it, later ones get the
 * same instance, and the index is committed and closed when the last of them {@link #release releases} it.
 *
 * @see MemoryIndex
 */
public final class SearchIndexes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SearchIndexes.class);

    /** Commit data keys of an index's position are this prefix and the position's source. */
    static final String POSITION_PREFIX = "position.";

    private final IndexSettings settings;
    private final String modelId;
    private final boolean inMemory;
    private final Map<Integer, Shared> byPartition = new ConcurrentHashMap<>();
    private final AtomicLong rebuilds = new AtomicLong();
    private final AtomicLong reuses = new AtomicLong();

    private SearchIndexes(IndexSettings settings, String modelId, boolean inMemory) {
        this.settings = settings;
        this.modelId = modelId;
        this.inMemory = inMemory;
    }

    /**
     * Memory-mapped indexes in a folder of each task's state directory (production), reused across restarts.
     *
     * @param modelId the embedder model whose vectors the indexes hold; vectors of other models are ignored
     */
    public static SearchIndexes onDisk(IndexSettings settings, String modelId) {
        return new SearchIndexes(settings, modelId, false);
    }

    /** Heap indexes (tests): always rebuilt when opened. */
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

    /** The folder of a task's index in its state directory. */
    public static Path folder(Path taskDir) {
        return taskDir.resolve("search-index");
    }

    /**
     * The partition's index: reused from disk when committed at {@code position} by the same model and settings (then
     * {@link IndexSource#reload}), else rebuilt ({@link IndexSource#rebuild}); shared with later callers.
     *
     * @param taskDir the task's state directory (the index lives in its {@code search-index} folder)
     * @param position the position of the task's stores (see the class comment); empty for a task that has never
     *     processed a record
     */
    public synchronized MemoryIndex open(int partition, Path taskDir, Map<String, Long> position, IndexSource source) {
        Shared shared = byPartition.get(partition);
        if (shared == null) {
            long started = System.nanoTime();
            MemoryIndex index = inMemory ? null : MemoryIndex.reopen(folder(taskDir), settings, commitData(position));
            try {
                if (index != null) {
                    source.reload(index);
                    reuses.incrementAndGet();
                    log.info(
                            "Reusing the search index of partition {} at {} ({} ms)",
                            partition,
                            position,
                            (System.nanoTime() - started) / 1_000_000);
                } else {
                    index = inMemory ? MemoryIndex.inMemory(settings) : MemoryIndex.onDisk(folder(taskDir), settings);
                    log.info("Rebuilding the search index of partition {}", partition);
                    source.rebuild(index);
                    rebuilds.incrementAndGet();
                }
                index.position(position);
                index.refresh();
            } catch (RuntimeException e) {
                if (index != null) {
                    index.close();
                }
                throw e;
            }
            shared = new Shared(index);
            byPartition.put(partition, shared);
        }
        shared.users++;
        return shared.index;
    }

    /**
     * Releases one use of the partition's index; the last release commits it at its position (see the class comment)
     * and closes it. Call from the thread that writes the index, after its last write.
     */
    public synchronized void release(int partition) {
        Shared shared = byPartition.get(partition);
        if (shared != null && --shared.users == 0) {
            byPartition.remove(partition);
            try {
                if (!inMemory) {
                    shared.index.commit(commitData(shared.index.position()));
                }
            } catch (RuntimeException e) { // the index keeps its previous commit, whose position no store will match
                log.warn("Cannot commit the search index of partition {}; it will be rebuilt", partition, e);
            } finally {
                shared.index.close();
            }
        }
    }

    /** The partition's index, when a task of this process holds it. */
    public Optional<MemoryIndex> get(int partition) {
        Shared shared = byPartition.get(partition);
        return shared == null ? Optional.empty() : Optional.of(shared.index);
    }

    /** Indexes rebuilt by {@link #open} so far. */
    public long rebuilds() {
        return rebuilds.get();
    }

    /** Indexes reused from disk by {@link #open} so far. */
    public long reuses() {
        return reuses.get();
    }

    /** Open indexes whose HNSW graphs are being built in the background ({@link MemoryIndex#buildingGraphs}). */
    public synchronized int buildingGraphs() {
        return (int) byPartition.values().stream()
                .filter(s -> s.index.buildingGraphs())
                .count();
    }

    /**
     * What an index is committed with: its position, the document format ({@link MemoryDocuments#FORMAT}), the
     * embedding model and the settings (which set the vector format). Reused only when all are equal. The RAM buffer is
     * left out: it decides when segments are flushed, not what they hold.
     */
    Map<String, String> commitData(Map<String, Long> position) {
        Map<String, String> data = new TreeMap<>();
        position.forEach((source, offset) -> data.put(POSITION_PREFIX + source, Long.toString(offset)));
        data.put("format", Integer.toString(MemoryDocuments.FORMAT));
        data.put("model", modelId);
        data.put(
                "settings",
                settings.withRamBufferMb(IndexSettings.DEFAULTS.ramBufferMb()).toString());
        return data;
    }

    /** Closes every index without committing (a task still holding one did not stop cleanly). */
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
