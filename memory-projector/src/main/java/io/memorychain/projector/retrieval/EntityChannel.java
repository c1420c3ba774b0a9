package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.view.Relation;
import io.memorychain.domain.Relations;
import io.memorychain.projector.search.EntityNameKeys;
import io.memorychain.projector.view.MemoryViews;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The entity channel of {@code memory.query} (docs/architecture.md §7), the third retrieval channel beside keywords and
 * meaning. It resolves the entity memories the query names by their name keys in the index ({@link EntityNameKeys}; one
 * term lookup, independent of the search's candidates), follows relation edges 1-2 hops from them in both directions,
 * and scores each memory reached by its proximity times its affinity to the query:
 *
 * <pre>
 * proximity = seed                                for a named entity
 *           = max over paths of prod(hop * edge)  edge = strength, times similar for the linker's related_to edges
 * affinity  = the cosine to the query scaled to 0..1 from {@code from} standard deviations around the mean cosine
 *             of the search's candidates to their highest (1 without a query vector): how relevant the memory is
 *             by meaning, on the scale of what the search found, so that the neighbours of a much-linked entity
 *             that have nothing to do with the question get nothing
 * channel   = proximity * affinity                in 0..1
 * </pre>
 *
 * and the fusion adds {@code weight * channel} to the relevance, the keyword and meaning fusion of
 * {@link RankingWeights} min-max scaled to 0..1, then scales it back to at most 1. Memories reached that the search did
 * not return join the candidates when the query admits them (states, filters, allowlist, as search results); the
 * channel passes only through memories the caller may see.
 */
public final class EntityChannel {

    /** Named entities followed per query at most. */
    static final int MAX_SEEDS = 8;
    /** Strongest edges followed from one memory at most (a hub entity with thousands of edges stays cheap). */
    static final int MAX_EDGES = 64;
    /** Memories the channel reaches per query at most. */
    static final int MAX_REACHED = 200;

    /**
     * @param weight weight of the channel against the 0..1 relevance of the keyword and meaning fusion (0: off)
     * @param seed proximity of a named entity itself
     * @param hop proximity kept per hop
     * @param similar factor of the linker's untyped {@code related_to} edges against typed ones (develops, uses,
     *     part-of, ...), which an agent wrote on purpose
     * @param from where the affinity starts, in standard deviations of the candidates' cosines from their mean (-1: a
     *     memory less like the query than the mean candidate by one deviation gets 0; as alike as the best candidate:
     *     1)
     */
    public record Weights(double weight, double seed, double hop, double similar, double from) {

        /** Chosen on the labelled set's multi-hop queries, within its floors for the other types (docs/testing.md). */
        public static final Weights DEFAULTS = new Weights(1.0, 0, 1.0, 0.5, -1);

        public static final Weights OFF = new Weights(0, 0, 1.0, 0.5, -1);

        public Weights {
            if (weight < 0 || seed < 0 || seed > 1 || hop <= 0 || hop > 1 || similar < 0 || similar > 1 || from > 0) {
                throw new IllegalArgumentException("entity channel weights out of range: weight >= 0, seed and"
                        + " similar in [0, 1], hop in (0, 1], from <= 0");
            }
        }
    }

    private final Weights weights;

    public EntityChannel(Weights weights) {
        this.weights = weights;
    }

    public Weights weights() {
        return weights;
    }

    /**
     * The named entities: those the index resolves from the query's name keys, then entities among the candidates that
     * the query names (views without an index), each only if {@code passable}.
     */
    List<String> seeds(
            MemoryViews views,
            String space,
            String query,
            Collection<String> candidates,
            Function<String, Optional<Memory>> memory,
            Predicate<String> passable) {
        Set<String> keys = EntityNameKeys.ofQuery(query);
        Set<String> seeds = new LinkedHashSet<>(views.namedEntities(space, keys, MAX_SEEDS * 2));
        for (String id : candidates) {
            memory.apply(id)
                    .filter(m -> m.getKind() == MemoryKind.ENTITY && named(keys, m))
                    .ifPresent(m -> seeds.add(m.getId()));
        }
        return seeds.stream().filter(passable).limit(MAX_SEEDS).toList();
    }

    static boolean named(Set<String> queryKeys, Memory entity) {
        return EntityNameKeys.ofEntity(entity).stream().anyMatch(queryKeys::contains);
    }

    /**
     * Proximity of every memory within two hops of the seeds (the seeds included), best path first-come; edges are
     * followed in both directions, the strongest {@value #MAX_EDGES} of each memory, only through {@code passable}
     * memories.
     */
    Map<String, Double> proximity(
            List<String> seeds, Function<String, List<Relation>> relations, Predicate<String> passable) {
        Map<String, Double> reached = new LinkedHashMap<>();
        seeds.forEach(s -> reached.put(s, weights.seed()));
        List<String> frontier = seeds;
        Map<String, Double> pathFromSeed = new LinkedHashMap<>();
        seeds.forEach(s -> pathFromSeed.put(s, 1.0));
        for (int hop = 1; hop <= 2 && !frontier.isEmpty(); hop++) {
            List<String> next = new ArrayList<>();
            for (String from : frontier) {
                List<Relation> edges = new ArrayList<>(relations.apply(from));
                edges.sort(Comparator.comparingDouble(Relation::getStrength).reversed());
                for (Relation edge : edges.subList(0, Math.min(MAX_EDGES, edges.size()))) {
                    String to = edge.getFromId().equals(from) ? edge.getToId() : edge.getFromId();
                    double path = pathFromSeed.get(from)
                            * weights.hop()
                            * edge.getStrength()
                            * (Relations.SYMMETRIC.equals(edge.getRelationType()) ? weights.similar() : 1.0);
                    if (path <= pathFromSeed.getOrDefault(to, 0.0)
                            || !passable.test(to)
                            || (!reached.containsKey(to) && reached.size() >= MAX_REACHED)) {
                        continue;
                    }
                    pathFromSeed.put(to, path);
                    reached.merge(to, path, Math::max);
                    next.add(to);
                }
            }
            frontier = next;
        }
        return reached;
    }

    /**
     * The channel's score of each memory reached ({@code proximity * affinity}, see the class comment), best first.
     *
     * @param cosine the memory's cosine to the query, null when unknown (no query vector, or no embedding)
     * @param candidates the cosines of the search's candidates, the scale of the affinity
     */
    Map<String, Double> scores(
            Map<String, Double> proximity, Function<String, Double> cosine, Collection<Double> candidates) {
        double mean =
                candidates.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double sd = Math.sqrt(candidates.stream()
                .mapToDouble(c -> (c - mean) * (c - mean))
                .average()
                .orElse(0));
        double min = mean + weights.from() * sd;
        double max = candidates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        Map<String, Double> scores = new LinkedHashMap<>();
        proximity.forEach((id, p) -> {
            Double c = cosine.apply(id);
            double affinity = c == null || max <= min ? 1.0 : Math.max(0, Math.min(1, (c - min) / (max - min)));
            scores.put(id, p * affinity);
        });
        List<Map.Entry<String, Double>> ranked = new ArrayList<>(scores.entrySet());
        ranked.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Double> out = new LinkedHashMap<>();
        ranked.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /**
     * Adds {@code weight * channel} to the relevance (0..1) of each memory the channel scored; one the search did not
     * return joins with {@code outsider} as its relevance when {@code admissible}. Then scales the relevance back to at
     * most 1.
     */
    void fuse(
            Map<String, Double> relevance,
            Map<String, Double> channel,
            Predicate<String> admissible,
            Function<String, Double> outsider) {
        channel.forEach((id, c) -> {
            if (relevance.containsKey(id)) {
                relevance.merge(id, weights.weight() * c, Double::sum);
            } else if (admissible.test(id)) {
                relevance.put(id, outsider.apply(id) + weights.weight() * c);
            }
        });
        double max = relevance.values().stream()
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        if (max > 1) {
            relevance.replaceAll((id, r) -> r / max);
        }
    }
}
