package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.QueryTerms;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.view.MemoryViews;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The relevance of a query's candidates (docs/architecture.md §7): the search's two signals fused, the thread context
 * of each candidate and the entity channel added. {@link QueryService} ranks what this returns.
 */
final class CandidateFusion {

    private final MemoryViews views;
    private final RankingWeights weights;
    private final EntityChannel entities;

    CandidateFusion(MemoryViews views, RankingWeights weights, EntityChannel entities) {
        this.views = views;
        this.weights = weights;
        this.entities = entities;
    }

    /**
     * Fusion of the two signals of every candidate, then thread context (docs/architecture.md §7). Each signal is
     * z-scored over the candidates ({@code (x - mean) / sd}; BM25 0 outside the keyword list, a candidate without an
     * embedding of its content gets the mean cosine) and {@code base = keyword * z(bm25) + (1 - keyword) * z(cosine)}.
     * A memory of a thread then also gets the base of its thread neighbours, {@code previousTurn * base(previous) +
     * nextTurn * base(next)}: a reply ("Yes, I did!") is found through the question before it. Neighbours outside the
     * candidates join them (their BM25 is 0, their cosine from their stored embedding) when the query admits them.
     * Relevance is the result min-max scaled to 0..1, plus the entity channel ({@link #withEntityChannel}), scaled back
     * to at most 1. A candidate outside the kNN list gets its cosine from its stored embedding; without a query vector
     * (no embedder) the cosine signal is absent and BM25 alone is the base.
     */
    Map<String, Double> fuse(QueryReads reads, QueryRequest q, List<Hit> hits, float[] vector, Set<String> allowed) {
        Map<String, Double> bm25 = new LinkedHashMap<>();
        for (Hit hit : hits) {
            bm25.put(hit.id(), hit.bm25() == null ? 0.0 : hit.bm25().score());
            if (hit.vector() != null) {
                reads.cosines.put(hit.id(), (double) hit.vector().score());
            } else {
                reads.cosine(hit.id(), vector);
            }
        }
        ZScore keyword = ZScore.of(bm25.values());
        ZScore meaning = ZScore.of(bm25.keySet().stream()
                .map(reads.cosines::get)
                .filter(c -> c != null)
                .toList());
        double keywordWeight = vector == null ? 1 : keywordWeight(reads, q, hits);
        Map<String, Double> base = new LinkedHashMap<>();
        for (String id : bm25.keySet()) {
            base.put(
                    id,
                    keywordWeight * keyword.of(bm25.get(id)) + (1 - keywordWeight) * meaning.of(reads.cosines.get(id)));
        }
        Function<String, Double> outsider =
                id -> keywordWeight * keyword.of(0.0) + (1 - keywordWeight) * meaning.of(reads.cosines.get(id));
        Map<String, Double> fused = weights.previousTurn() > 0 || weights.nextTurn() > 0
                ? withThreadContext(reads, q, vector, allowed, base, outsider)
                : new LinkedHashMap<>(base);
        double min =
                fused.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double max =
                fused.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        fused.replaceAll((id, score) -> max > min ? (score - min) / (max - min) : 1.0);
        withEntityChannel(
                reads,
                q,
                vector,
                allowed,
                fused,
                id -> max > min ? Math.max(0, (outsider.apply(id) - min) / (max - min)) : 0.0);
        return fused;
    }

    /**
     * Each memory's base plus {@code previousTurn} and {@code nextTurn} times the base of its thread neighbours.
     * Neighbours that are not candidates but that the query admits join {@code base} with {@code baseOfOutsider} (no
     * keyword score, their stored cosine).
     */
    private Map<String, Double> withThreadContext(
            QueryReads reads,
            QueryRequest q,
            float[] vector,
            Set<String> allowed,
            Map<String, Double> base,
            Function<String, Double> baseOfOutsider) {
        List<Memory> threaded = base.keySet().stream()
                .map(reads::memory)
                .flatMap(Optional::stream)
                .filter(m -> m.getThreadId() != null)
                .toList();
        Map<String, ThreadNeighbours> neighbours =
                new HashMap<>(threaded.isEmpty() ? Map.of() : views.threadNeighbours(q.space(), threaded));
        Map<String, ThreadNeighbours> outsiders = new LinkedHashMap<>();
        neighbours.forEach((id, n) -> {
            for (String other : new String[] {n.previous(), n.next()}) {
                if (other != null
                        && !base.containsKey(other)
                        && !outsiders.containsKey(other)
                        && admissible(reads, q, other, allowed)) {
                    reads.cosine(other, vector);
                    outsiders.put(
                            other,
                            other.equals(n.previous())
                                    ? new ThreadNeighbours(null, id)
                                    : new ThreadNeighbours(id, null));
                }
            }
        });
        outsiders.keySet().forEach(id -> base.put(id, baseOfOutsider.apply(id)));
        neighbours.putAll(outsiders);
        Map<String, Double> fused = new LinkedHashMap<>();
        base.forEach((id, b) -> {
            ThreadNeighbours n = neighbours.get(id);
            fused.put(
                    id,
                    n == null
                            ? b
                            : b
                                    + weights.previousTurn() * base.getOrDefault(n.previous(), 0.0)
                                    + weights.nextTurn() * base.getOrDefault(n.next(), 0.0));
        });
        return fused;
    }

    /** Keyword candidates whose coverage of the query sets the keyword weight. */
    static final int COVERAGE_CANDIDATES = 3;

    /**
     * The keyword weight of this query: {@code keyword} when the best keyword candidates hold none of the query's terms
     * (a stray word), rising linearly to {@code keywordCovered} when one of the best {@value #COVERAGE_CANDIDATES}
     * holds all of them (the words of the query are the words of a memory).
     */
    private double keywordWeight(QueryReads reads, QueryRequest q, List<Hit> hits) {
        if (weights.keywordCovered() == weights.keyword()) {
            return weights.keyword();
        }
        Set<String> terms = QueryTerms.of(q.query());
        double coverage = hits.stream()
                .filter(h -> h.bm25() != null)
                .sorted(Comparator.comparingInt((Hit h) -> h.bm25().rank()))
                .limit(COVERAGE_CANDIDATES)
                .map(h -> reads.memory(h.id()))
                .flatMap(Optional::stream)
                .mapToDouble(m -> QueryTerms.coverage(
                        terms, m.getSummary() == null ? m.getContent() : m.getContent() + "\n" + m.getSummary()))
                .max()
                .orElse(0);
        return weights.keyword() * (1 - coverage) + weights.keywordCovered() * coverage;
    }

    /** Standardises a signal over the candidates; a missing value (null) scores the mean, 0. */
    private record ZScore(double mean, double sd) {

        static ZScore of(Collection<Double> values) {
            double mean =
                    values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            double variance = values.stream()
                    .mapToDouble(v -> (v - mean) * (v - mean))
                    .average()
                    .orElse(0);
            return new ZScore(mean, Math.sqrt(variance));
        }

        double of(Double value) {
            return value == null || sd == 0 ? 0 : (value - mean) / sd;
        }
    }

    /**
     * The entity channel (docs/architecture.md §7, {@link EntityChannel}): the entities the query names, their
     * neighbourhood of 1-2 relation hops scored by proximity and affinity to the query, added to the relevance
     * ({@code outsider}: the scaled relevance of a memory the search did not return, at least 0). It passes only
     * through visible memories of allowed categories; what it adds must pass the query's states, filters and allowlist
     * like search results.
     */
    private void withEntityChannel(
            QueryReads reads,
            QueryRequest q,
            float[] vector,
            Set<String> allowed,
            Map<String, Double> fused,
            Function<String, Double> outsider) {
        if (entities.weights().weight() == 0) {
            return;
        }
        Predicate<String> passable = id -> passable(reads, q, id, allowed);
        List<String> seeds =
                entities.seeds(views, q.space(), q.query(), List.copyOf(fused.keySet()), reads::memory, passable);
        if (seeds.isEmpty()) {
            return;
        }
        List<Double> candidateCosines = fused.keySet().stream()
                .map(reads.cosines::get)
                .filter(c -> c != null)
                .toList();
        Map<String, Double> proximity = entities.proximity(seeds, reads::relations, passable);
        Map<String, Double> channel = entities.scores(proximity, id -> reads.cosine(id, vector), candidateCosines);
        entities.fuse(fused, channel, id -> admissible(reads, q, id, allowed), outsider);
    }

    /** A memory the entity channel may pass through: visible to this query and of an allowed category. */
    private boolean passable(QueryReads reads, QueryRequest q, String id, Set<String> allowed) {
        Optional<Memory> m = reads.memory(id);
        return m.isPresent()
                && visible(m.get(), q.includeSuperseded())
                && m.get().getKind() != MemoryKind.BLOCK
                && (allowed == null
                        || allowed.contains(
                                m.get().getCategory() == null
                                        ? SearchRequest.UNCATEGORIZED
                                        : m.get().getCategory()));
    }

    /** A memory the query admits as a result: visible, of an allowed category, and matching its filters. */
    private boolean admissible(QueryReads reads, QueryRequest q, String id, Set<String> allowed) {
        return passable(reads, q, id, allowed)
                && FilterMatcher.matches(q.filters(), reads.memory(id).orElseThrow());
    }

    private static boolean visible(Memory m, boolean includeSuperseded) {
        return m.getState() == MemoryState.ACTIVE || (includeSuperseded && m.getState() == MemoryState.SUPERSEDED);
    }
}
