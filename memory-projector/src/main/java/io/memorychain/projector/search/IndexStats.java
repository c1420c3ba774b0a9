package io.memorychain.projector.search;

/**
 * The shape of the index as searches see it now.
 *
 * @param documents memories indexed (every space and state)
 * @param deleted replaced or deleted versions still taking room until their segments are merged
 * @param segments segments; kNN searches one HNSW graph per segment, so fewer is faster
 * @param graphless segments without a graph yet (written by a rebuild, until its background graph build ends), whose
 *     kNN searches are exact
 */
public record IndexStats(int documents, int deleted, int segments, int graphless) {}
