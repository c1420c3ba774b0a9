package io.memorychain.bench.load;

import io.memorychain.avro.Memory;
import io.memorychain.embeddings.Embedder;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.view.MemoryViews;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Per-stage timers of {@code memory.query} (docs/architecture.md §7), each stage done the way the query does it and
 * timed alone, one query after the other: the query embedding, the hybrid index search of the candidates, reading the
 * candidates' memories from the views, their thread neighbours, and reading the memories and stored embeddings of
 * neighbours outside the candidates. What is left of the end-to-end time is fusion, the rerank and packing.
 */
final class QueryStages {

    private QueryStages() {}

    static Map<String, long[]> measure(
            MemoryViews views, Embedder embedder, String space, int queries, IntFunction<String> text) {
        String[] names = {"embedding", "search", "candidate_reads", "thread_neighbours", "neighbour_reads"};
        Map<String, long[]> nanos = new LinkedHashMap<>();
        for (String name : names) {
            nanos.put(name, new long[queries]);
        }
        for (int i = 0; i < queries; i++) {
            String q = text.apply(i);
            long t0 = System.nanoTime();
            float[] vector = embedder.embedQuery(q);
            long t1 = System.nanoTime();
            List<Hit> hits = views.search(SearchRequest.builder(space)
                    .text(q)
                    .vector(vector)
                    .mode(SearchMode.HYBRID)
                    .topK(RankingWeights.DEFAULTS.candidates())
                    .excludeDormant(true)
                    .build());
            long t2 = System.nanoTime();
            List<Memory> candidates = new ArrayList<>(hits.size());
            Set<String> ids = new HashSet<>();
            for (Hit hit : hits) {
                views.memory(space, hit.id()).ifPresent(candidates::add);
                ids.add(hit.id());
            }
            long t3 = System.nanoTime();
            Map<String, ThreadNeighbours> neighbours = views.threadNeighbours(
                    space,
                    candidates.stream().filter(m -> m.getThreadId() != null).toList());
            long t4 = System.nanoTime();
            for (ThreadNeighbours n : neighbours.values()) {
                for (String other : new String[] {n.previous(), n.next()}) {
                    if (other != null && ids.add(other)) {
                        Optional<Memory> m = views.memory(space, other);
                        m.ifPresent(found -> views.embedding(space, other));
                    }
                }
            }
            long t5 = System.nanoTime();
            long[] at = {t0, t1, t2, t3, t4, t5};
            for (int s = 0; s < names.length; s++) {
                nanos.get(names[s])[i] = at[s + 1] - at[s];
            }
        }
        return nanos;
    }
}
