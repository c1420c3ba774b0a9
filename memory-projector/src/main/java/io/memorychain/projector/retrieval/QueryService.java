package io.memorychain.projector.retrieval;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.avro.view.Relation;
import io.memorychain.domain.category.CategoryNotAllowedException;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.QueryTerms;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.view.DeltaHeader;
import io.memorychain.projector.view.MemoryViews;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@code memory.query} (docs/architecture.md §7): hybrid BM25 + vector search inside the index (filters, states and the
 * agent's category allowlist applied there), fused with the entity channel (1-2 relation hops from the entities the
 * query names, {@link EntityChannel}), an optional
 * cross-encoder {@link Reranker} over the best fused candidates ({@link Reranking}), then a rerank with decay,
 * importance, recency and relation strength, exclusion of memories the chain says are dormant (DecayTransitioned;
 * unless {@code include_dormant}) or archived (never by the clock alone), per-category {@code rag_length} caps, the
 * similarity threshold, related bullets, and packing within the token budget. Returned memories are recorded as
 * accesses.
 */
public final class QueryService {

    /** Candidates fetched per requested result, so that exclusions after the search rarely leave the answer short. */
    static final int CANDIDATE_FACTOR = 4;

    static final int MAX_RELATED = 2;
    static final int MAX_DELTA_CHANGES = 50;

    private final MemoryViews views;
    private final Embedder embedder;
    private final CategoryPolicy policy;
    private final DecayModel decay;
    private final RankingWeights weights;
    private final AccessRecorder accesses;
    private final Clock clock;
    private final Reranking reranking;
    private final TemporalWeights temporal;
    private final EntityChannel entities;

    /**
     * @param embedder embeds queries; null searches by keywords only (and ignores thresholds)
     */
    public QueryService(
            MemoryViews views,
            Embedder embedder,
            CategoryPolicy policy,
            DecayModel decay,
            RankingWeights weights,
            AccessRecorder accesses,
            Clock clock) {
        this(views, embedder, policy, decay, weights, accesses, clock, Reranker.NONE, 1);
    }

    /**
     * @param reranker   reorders the best {@code rerankTopN} candidates after fusion ({@link Reranker#NONE}: none)
     * @param rerankTopN candidates the reranker reads, at least 1
     */
    public QueryService(
            MemoryViews views,
            Embedder embedder,
            CategoryPolicy policy,
            DecayModel decay,
            RankingWeights weights,
            AccessRecorder accesses,
            Clock clock,
            Reranker reranker,
            int rerankTopN) {
        this(
                views,
                embedder,
                policy,
                decay,
                weights,
                accesses,
                clock,
                reranker,
                rerankTopN,
                TemporalWeights.DEFAULTS,
                EntityChannel.Weights.DEFAULTS);
    }

    /** @param temporal how the query's dates steer the ranking (docs/architecture.md §7, dates) */
    public QueryService(
            MemoryViews views,
            Embedder embedder,
            CategoryPolicy policy,
            DecayModel decay,
            RankingWeights weights,
            AccessRecorder accesses,
            Clock clock,
            Reranker reranker,
            int rerankTopN,
            TemporalWeights temporal) {
        this(
                views,
                embedder,
                policy,
                decay,
                weights,
                accesses,
                clock,
                reranker,
                rerankTopN,
                temporal,
                EntityChannel.Weights.DEFAULTS);
    }

    /** @param entityWeights the entity channel's ({@link EntityChannel.Weights#OFF}: none) */
    public QueryService(
            MemoryViews views,
            Embedder embedder,
            CategoryPolicy policy,
            DecayModel decay,
            RankingWeights weights,
            AccessRecorder accesses,
            Clock clock,
            Reranker reranker,
            int rerankTopN,
            EntityChannel.Weights entityWeights) {
        this(
                views,
                embedder,
                policy,
                decay,
                weights,
                accesses,
                clock,
                reranker,
                rerankTopN,
                TemporalWeights.DEFAULTS,
                entityWeights);
    }

    /**
     * @param temporal      how the query's dates steer the ranking (docs/architecture.md §7, dates)
     * @param entityWeights the entity channel's ({@link EntityChannel.Weights#OFF}: none)
     */
    public QueryService(
            MemoryViews views,
            Embedder embedder,
            CategoryPolicy policy,
            DecayModel decay,
            RankingWeights weights,
            AccessRecorder accesses,
            Clock clock,
            Reranker reranker,
            int rerankTopN,
            TemporalWeights temporal,
            EntityChannel.Weights entityWeights) {
        this.temporal = temporal;
        this.reranking = new Reranking(reranker, rerankTopN, clock);
        this.entities = new EntityChannel(entityWeights);
        this.views = views;
        this.embedder = embedder;
        this.policy = policy;
        this.decay = decay;
        this.weights = weights;
        this.accesses = accesses;
        this.clock = clock;
    }

    /**
     * @param actor who asks (recorded with the accesses)
     * @throws CategoryNotAllowedException when the request names categories outside the agent's allowlist
     */
    public QueryResult query(QueryRequest q, Actor actor) {
        return query(q, actor, Set.of(), QueryStages.NONE);
    }

    /**
     * As {@link #query(QueryRequest, Actor)}, with the query's dates read as {@code dates} says: relative ones
     * resolved against a point in time ({@code as_of}, docs/architecture.md §17), or one date used as a filter.
     */
    public QueryResult query(QueryRequest q, Actor actor, QueryDates dates) {
        return query(q, actor, Set.of(), dates, QueryStages.NONE);
    }

    /** As {@link #query(QueryRequest, Actor, QueryDates)}, recording where the time went in {@code stages}. */
    public QueryResult query(QueryRequest q, Actor actor, QueryDates dates, QueryStages stages) {
        return query(q, actor, Set.of(), dates, stages);
    }

    /** As {@link #query(QueryRequest, Actor)}, never returning the memories in {@code exclude}. */
    QueryResult query(QueryRequest q, Actor actor, Set<String> exclude, QueryStages stages) {
        return query(q, actor, exclude, QueryDates.BOOST, stages);
    }

    private QueryResult query(
            QueryRequest request, Actor actor, Set<String> exclude, QueryDates dates, QueryStages stages) {
        long started = System.nanoTime();
        Reads reads = new Reads(request.space());
        Set<String> allowed = allowedCategories(request);
        Instant now = clock.instant();
        TemporalQuery temporalQuery = TemporalQuery.of(
                request.query(), LocalDate.ofInstant(dates.asOf() == null ? now : dates.asOf(), ZoneOffset.UTC));
        QueryRequest q = dates.filter() ? temporalQuery.restrict(request) : request;
        float[] vector = embedder == null ? null : embedder.embedQuery(q.query());
        long embedded = stages.since("embed", started);
        int candidates = Math.min(SearchRequest.MAX_TOP_K, Math.max(q.topK() * CANDIDATE_FACTOR, weights.candidates()));
        List<Hit> hits = views.search(SearchRequest.builder(q.space())
                .text(q.query())
                .vector(vector)
                .mode(SearchMode.HYBRID)
                .topK(candidates)
                .filters(q.filters())
                .allowedCategories(allowed)
                .includeSuperseded(q.includeSuperseded())
                .excludeDormant(!q.includeDormant())
                .build());
        long searched = stages.since("search", embedded);

        Map<String, Double> relevance = fuse(reads, q, hits, vector, allowed);
        temporalQuery.boost(temporal, relevance, reads::memory);
        reranking.apply(
                q.query(),
                relevance,
                id -> reads.memory(id).map(Memory::getContent).orElse(null));
        long fused = stages.since("fuse", searched);

        List<Scored> ranked = new ArrayList<>();
        relevance.keySet().removeAll(exclude);
        for (Map.Entry<String, Double> candidate : relevance.entrySet()) {
            Optional<Memory> found = reads.memory(candidate.getKey());
            if (found.isEmpty()) {
                continue;
            }
            Memory m = found.get();
            Optional<AccessStats> stats = views.access(q.space(), m.getId());
            double decayScore = decay.score(
                    m,
                    stats.map(AccessStats::getLastAccessed).orElse(null),
                    stats.map(AccessStats::getCount).orElse(0L),
                    now);
            // ranks by the score, hides only by the chain: archived (state ARCHIVED, never in the index's default
            // states) and, unless asked for, dormant memories are those with a DecayTransitioned event saying so
            DecayModel.Status status = DecayModel.Status.of(m);
            if (status == DecayModel.Status.ARCHIVED
                    || m.getState() == MemoryState.ARCHIVED
                    || (status == DecayModel.Status.DORMANT && !q.includeDormant())
                    || belowThreshold(reads, q, vector, m)) {
                continue;
            }
            ranked.add(new Scored(m, score(candidate.getValue(), decayScore, m, now), status));
        }
        ranked.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.memory.getId()));
        List<Scored> top = cap(ranked, q.topK());
        long rankedAt = stages.since("rank", fused);
        QueryResult result = pack(reads, q, top, allowed, actor, now);
        stages.since("pack", rankedAt);
        return result;
    }

    /**
     * Fusion of the two signals of every candidate, then thread context (docs/architecture.md §7). Each signal is
     * z-scored over the candidates ({@code (x - mean) / sd}; BM25 0 outside the keyword list, a candidate without an
     * embedding of its content gets the mean cosine) and {@code base = keyword * z(bm25) + (1 - keyword) * z(cosine)}.
     * A memory of a thread then also gets the base of its thread neighbours, {@code previousTurn * base(previous) +
     * nextTurn * base(next)}: a reply ("Yes, I did!") is found through the question before it. Neighbours outside the
     * candidates join them (their BM25 is 0, their cosine from their stored embedding) when the query admits them.
     * Relevance is the result min-max scaled to 0..1, plus the entity channel ({@link #withEntityChannel}), scaled
     * back to at most 1. A candidate outside the kNN list gets its cosine from its stored
     * embedding; without a query vector (no embedder) the cosine signal is absent and BM25 alone is the base.
     */
    private Map<String, Double> fuse(Reads reads, QueryRequest q, List<Hit> hits, float[] vector, Set<String> allowed) {
        Map<String, Double> bm25 = new LinkedHashMap<>();
        for (Hit hit : hits) {
            bm25.put(hit.id(), hit.bm25() == null ? 0.0 : hit.bm25().score());
            Double cos =
                    hit.vector() != null ? Double.valueOf(hit.vector().score()) : storedCosine(reads, hit.id(), vector);
            if (cos != null) {
                reads.cosines.put(hit.id(), cos);
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
     * Neighbours that are not candidates but that the query admits join {@code base} with {@code baseOfOutsider}
     * (no keyword score, their stored cosine).
     */
    private Map<String, Double> withThreadContext(
            Reads reads,
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
                    Double cos = storedCosine(reads, other, vector);
                    if (cos != null) {
                        reads.cosines.put(other, cos);
                    }
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
     * The keyword weight of this query: {@code keyword} when the best keyword candidates hold none of the query's
     * terms (a stray word), rising linearly to {@code keywordCovered} when one of the best {@value
     * #COVERAGE_CANDIDATES} holds all of them (the words of the query are the words of a memory).
     */
    private double keywordWeight(Reads reads, QueryRequest q, List<Hit> hits) {
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

    private Double storedCosine(Reads reads, String id, float[] vector) {
        if (vector == null) {
            return null;
        }
        Optional<Memory> m = reads.memory(id);
        return m.flatMap(memory ->
                        reads.embedding(id).filter(e -> e.getContentHash().equals(memory.getContentHash())))
                .map(e -> cosine(vector, e.getVector()))
                .orElse(null);
    }

    /** The categories the search may return: null for any, else a set (UNCATEGORIZED included when allowed). */
    Set<String> allowedCategories(QueryRequest q) {
        List<String> requested = new ArrayList<>(q.categories());
        if (q.filters().category() != null) {
            requested.add(q.filters().category());
        }
        List<String> denied = policy.disallowed(q.agent(), requested);
        if (!denied.isEmpty()) {
            throw new CategoryNotAllowedException(q.agent(), denied);
        }
        if (!q.categories().isEmpty()) {
            return new LinkedHashSet<>(q.categories());
        }
        Optional<Set<String>> allowlist = policy.allowedFor(q.agent());
        if (allowlist.isEmpty()) {
            return null;
        }
        Set<String> allowed = new LinkedHashSet<>(allowlist.get());
        allowed.add(SearchRequest.UNCATEGORIZED);
        return allowed;
    }

    /**
     * The entity channel (docs/architecture.md §7, {@link EntityChannel}): the entities the query names, their
     * neighbourhood of 1-2 relation hops scored by proximity and affinity to the query, added to the relevance
     * ({@code outsider}: the scaled relevance of a memory the search did not return, at least 0). It
     * passes only through visible memories of allowed categories; what it adds must pass the query's states,
     * filters and allowlist like search results.
     */
    private void withEntityChannel(
            Reads reads,
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
        Map<String, Double> channel = entities.scores(
                proximity,
                id -> {
                    if (!reads.cosines.containsKey(id)) {
                        Double cos = storedCosine(reads, id, vector);
                        if (cos != null) {
                            reads.cosines.put(id, cos);
                        }
                    }
                    return reads.cosines.get(id);
                },
                candidateCosines);
        entities.fuse(fused, channel, id -> admissible(reads, q, id, allowed), outsider);
    }

    /** A memory the entity channel may pass through: visible to this query and of an allowed category. */
    private boolean passable(Reads reads, QueryRequest q, String id, Set<String> allowed) {
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
    private boolean admissible(Reads reads, QueryRequest q, String id, Set<String> allowed) {
        return passable(reads, q, id, allowed)
                && FilterMatcher.matches(q.filters(), reads.memory(id).orElseThrow());
    }

    private static boolean visible(Memory m, boolean includeSuperseded) {
        return m.getState() == MemoryState.ACTIVE || (includeSuperseded && m.getState() == MemoryState.SUPERSEDED);
    }

    private boolean belowThreshold(Reads reads, QueryRequest q, float[] vector, Memory m) {
        if (q.threshold() == null || vector == null) {
            return false;
        }
        Double cos = reads.cosines.containsKey(m.getId())
                ? reads.cosines.get(m.getId())
                : storedCosine(reads, m.getId(), vector);
        return cos != null && cos < q.threshold();
    }

    private static double cosine(float[] unitQuery, List<Float> unitVector) {
        double dot = 0;
        for (int i = 0; i < unitQuery.length; i++) {
            dot += unitQuery[i] * unitVector.get(i);
        }
        return dot;
    }

    /**
     * docs/architecture.md §12: ToM insights (kind INSIGHT) are inferences, "surfaced in retrieval with low weight": their
     * score is multiplied by this, so a stated fact about as relevant ranks first.
     */
    static final double INSIGHT_WEIGHT = 0.8;

    private double score(double relevance, double decayScore, Memory m, Instant now) {
        double days = Math.max(0, Duration.between(m.getUpdatedAt(), now).toMillis() / 86_400_000.0);
        double maxStrength = views.relationStrength(m.getSpace(), m.getId());
        return relevance
                * (m.getKind() == MemoryKind.INSIGHT ? INSIGHT_WEIGHT : 1.0)
                * decayFactor(decayScore)
                * (1 + weights.importance() * (m.getImportance() - 3) / 2.0)
                * (1 + weights.recency() * Math.exp(-days / 30))
                * (1 + weights.relation() * maxStrength);
    }

    /**
     * docs/architecture.md §7: active memories (score >= 0.5) rank normally (1.0); fading ones (0.2..0.5) are
     * deprioritised linearly down to {@code 1 - decay}; dormant ones, when asked for, rank at {@code 1 - decay}.
     */
    private double decayFactor(double decayScore) {
        if (decayScore >= 0.5) {
            return 1;
        }
        double fading = Math.max(0, decayScore - 0.2) / 0.3;
        return 1 - weights.decay() * (1 - fading);
    }

    /** The best {@code topK}, at most {@code rag_length} per RAG-mode category. */
    private List<Scored> cap(List<Scored> ranked, int topK) {
        Map<String, Integer> perCategory = new HashMap<>();
        List<Scored> out = new ArrayList<>(topK);
        for (Scored s : ranked) {
            String category = s.memory.getCategory();
            int limit = category == null
                    ? Integer.MAX_VALUE
                    : policy.category(category)
                            .filter(c -> c.context() == CategoryPolicy.ContextMode.RAG && c.ragLength() > 0)
                            .map(CategoryPolicy.Category::ragLength)
                            .orElse(Integer.MAX_VALUE);
            int used = category == null ? 0 : perCategory.merge(category, 1, Integer::sum);
            if (used <= limit) {
                out.add(s);
            }
            if (out.size() == topK) {
                break;
            }
        }
        return out;
    }

    private QueryResult pack(
            Reads reads, QueryRequest q, List<Scored> ranked, Set<String> allowed, Actor actor, Instant now) {
        String thread = q.threadId() == null ? "" : q.threadId();
        long revision = views.threadRevision(q.space(), thread);
        String header = q.sinceRev() == null
                ? ""
                : DeltaHeader.format(
                        q.sinceRev(), views.threadChanges(q.space(), thread, q.sinceRev(), MAX_DELTA_CHANGES));
        int budget = q.budgetTokens() == null ? Integer.MAX_VALUE : q.budgetTokens();
        int used = QueryRendering.tokens(header);
        if (used > budget) {
            header = "";
            used = 0;
        }
        Set<String> returned = new LinkedHashSet<>();
        ranked.forEach(s -> returned.add(s.memory.getId()));
        List<QueryResult.Item> items = new ArrayList<>();
        int omitted = 0;
        for (Scored s : ranked) {
            Memory m = s.memory;
            QueryResult.Item item = new QueryResult.Item(
                    m.getId(),
                    m.getCategory(),
                    QueryRendering.text(m),
                    s.score,
                    s.status,
                    q.format() == QueryRequest.Format.FULL ? m : null,
                    related(reads, q, m, returned, allowed));
            int cost =
                    QueryRendering.tokens(QueryRendering.bullet(item)) + (items.isEmpty() && header.isEmpty() ? 0 : 1);
            if (used + cost > budget) {
                omitted++;
                continue;
            }
            used += cost;
            items.add(item);
        }
        if (!items.isEmpty()) {
            accesses.record(new MemoryAccess(
                    q.space(), actor, items.stream().map(QueryResult.Item::id).toList(), now));
        }
        return new QueryResult(header, revision, List.copyOf(items), used, omitted);
    }

    /** Up to two active, allowed memories linked to {@code m} and not already in the answer, strongest first. */
    private List<QueryResult.Related> related(
            Reads reads, QueryRequest q, Memory m, Set<String> returned, Set<String> allowed) {
        List<Relation> edges = new ArrayList<>(reads.relations(m.getId()));
        edges.sort(Comparator.comparingDouble(Relation::getStrength).reversed());
        List<QueryResult.Related> out = new ArrayList<>(MAX_RELATED);
        for (Relation edge : edges) {
            String other = edge.getFromId().equals(m.getId()) ? edge.getToId() : edge.getFromId();
            if (returned.contains(other) || !admissibleRelated(reads, q, other, allowed)) {
                continue;
            }
            Memory o = reads.memory(other).orElseThrow();
            out.add(new QueryResult.Related(
                    other, edge.getRelationType(), edge.getStrength(), QueryRendering.relatedText(o)));
            if (out.size() == MAX_RELATED) {
                break;
            }
        }
        return List.copyOf(out);
    }

    private boolean admissibleRelated(Reads reads, QueryRequest q, String id, Set<String> allowed) {
        Optional<Memory> m = reads.memory(id);
        return m.isPresent()
                && m.get().getState() == MemoryState.ACTIVE
                && m.get().getKind() != MemoryKind.BLOCK
                && (allowed == null
                        || allowed.contains(
                                m.get().getCategory() == null
                                        ? SearchRequest.UNCATEGORIZED
                                        : m.get().getCategory()));
    }

    private record Scored(Memory memory, double score, DecayModel.Status status) {}

    /** The views one query reads, each memory and edge list read once per query. */
    private final class Reads {
        private final String space;
        private final Map<String, Optional<Memory>> memories = new HashMap<>();
        private final Map<String, List<Relation>> relations = new HashMap<>();
        /** Cosine similarity to the query of the search's candidates (absent: no embedding of their content). */
        private final Map<String, Double> cosines = new HashMap<>();

        Reads(String space) {
            this.space = space;
        }

        Optional<Memory> memory(String id) {
            return memories.computeIfAbsent(id, x -> views.memory(space, x));
        }

        List<Relation> relations(String id) {
            return relations.computeIfAbsent(id, x -> views.relations(space, x));
        }

        Optional<MemoryEmbedding> embedding(String id) {
            return views.embedding(space, id);
        }
    }
}
