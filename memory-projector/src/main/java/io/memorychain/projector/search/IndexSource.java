package io.memorychain.projector.search;

/**
 * Where a task's search index comes from: the task's stores. {@link SearchIndexes#open} asks for a {@link #rebuild}
 * when the index on disk cannot be reused, and for a {@link #reload} of what is kept beside the index when it can.
 */
public interface IndexSource {

    /** Replaces the content of the (empty) index with the task's stores, e.g. with {@link MemoryIndex#rebuild}. */
    void rebuild(MemoryIndex index);

    /**
     * Reloads what the index keeps in memory beside its files (the thread order, {@link MemoryIndex#reloadThreads})
     * from the task's stores, for an index reopened at the stores' position.
     */
    void reload(MemoryIndex index);
}
