package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.Memory;
import io.memorychain.embeddings.Embedder;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole set in one in-memory {@link MemoryIndex}, every memory embedded with the given embedder, and the raw index
 * as a {@link Retriever} in any {@link SearchMode}: the query's filters (time window anchored at the set's reference
 * time) and categories go into the search request, states stay at the default (ACTIVE only). Query vectors are computed
 * once per query text.
 */
public final class IndexedRetrievalSet implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IndexedRetrievalSet.class);

    private final RetrievalSet set;
    private final Embedder embedder;
    private final MemoryIndex index;
    private final Map<String, float[]> queryVectors = new ConcurrentHashMap<>();

    private IndexedRetrievalSet(RetrievalSet set, Embedder embedder, MemoryIndex index) {
        this.set = set;
        this.embedder = embedder;
        this.index = index;
    }

    /** Embeds every memory's content and indexes it; the caller keeps ownership of the embedder. */
    public static IndexedRetrievalSet build(RetrievalSet set, Embedder embedder, IndexSettings settings) {
        List<Memory> memories = AvroMemories.of(set);
        long started = System.nanoTime();
        List<float[]> vectors =
                embedder.embedAll(memories.stream().map(Memory::getContent).toList());
        long embedded = System.nanoTime();
        MemoryIndex index = MemoryIndex.inMemory(settings.withDimensions(embedder.dimensions()));
        for (int i = 0; i < memories.size(); i++) {
            index.upsert(memories.get(i), vectors.get(i));
        }
        index.refresh();
        log.info(
                "retrieval set indexed: {} memories embedded in {} ms, indexed in {} ms",
                memories.size(),
                (embedded - started) / 1_000_000,
                (System.nanoTime() - embedded) / 1_000_000);
        return new IndexedRetrievalSet(set, embedder, index);
    }

    public MemoryIndex index() {
        return index;
    }

    public RetrievalSet set() {
        return set;
    }

    /** The raw index in this mode, as a retriever. */
    public Retriever retriever(SearchMode mode) {
        return (query, topK) -> search(query, mode, topK).stream().map(Hit::id).toList();
    }

    /** The index's hits for the query (ids, scores and both rank signals). */
    public List<Hit> search(LabelledQuery query, SearchMode mode, int topK) {
        return index.search(request(query, mode, topK));
    }

    /** The request for a labelled query: text and/or vector as the mode needs, its filters and categories. */
    public SearchRequest request(LabelledQuery query, SearchMode mode, int topK) {
        SearchRequest.Builder b = SearchRequest.builder(query.space())
                .mode(mode)
                .topK(topK)
                .filters(query.filters().toSearchFilters(set.referenceTime()))
                .allowedCategories(query.categories());
        if (mode != SearchMode.VECTOR) {
            b.text(query.text());
        }
        if (mode != SearchMode.BM25) {
            b.vector(queryVectors.computeIfAbsent(query.text(), embedder::embed));
        }
        return b.build();
    }

    @Override
    public void close() {
        index.close();
    }
}
