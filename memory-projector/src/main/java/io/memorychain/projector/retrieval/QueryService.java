package io.memorychain.projector.retrieval;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.avro.view.Relation;
import io.memorychain.domain.category.CategoryNotAllowedException;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.DeltaHeader;
import io.memorychain.projector.view.MemoryViews;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code memory.query} (docs/architecture.md §7): hybrid BM25 + vector search inside the index (filters, states and the
 * agent's category allowlist applied there), fused with the entity channel (1-2 relation hops from the entities the
 * query names, {@link EntityChannel}), an optional cross-encoder {@link Reranker} over the best fused candidates
 * ({@link Reranking}), then a rerank with decay, importance, recency and relation strength, exclusion of memories the
 * chain says are dormant (DecayTransitioned; unless {@code include_dormant}) or archived (never by the clock alone),
 * per-category {@code rag_length} caps, the similarity threshold, related bullets, and packing within the token budget.
 * Returned memories are recorded as accesses.
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
    private final CandidateFusion fusion;

    /** @param embedder embeds queries; null searches by keywords only (and ignores thresholds) */
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
     * @param reranker reorders the best {@code rerankTopN} candidates after fusion ({@link Reranker#NONE}: none)
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
     * @param temporal how the query's dates steer the ranking (docs/architecture.md §7, dates)
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
        this.fusion = new CandidateFusion(views, weights, new EntityChannel(entityWeights));
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
     * As {@link #query(QueryRequest, Actor)}, with the query's dates read as {@code dates} says: relative ones resolved
     * against a point in time ({@code as_of}, docs/architecture.md §17), or one date used as a filter.
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
        QueryReads reads = new QueryReads(views, request.space());
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

        Map<String, Double> relevance = fusion.fuse(reads, q, hits, vector, allowed);
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

    private boolean belowThreshold(QueryReads reads, QueryRequest q, float[] vector, Memory m) {
        if (q.threshold() == null || vector == null) {
            return false;
        }
        Double cos = reads.cosine(m.getId(), vector);
        return cos != null && cos < q.threshold();
    }

    /**
     * docs/architecture.md §12: ToM insights (kind INSIGHT) are inferences, "surfaced in retrieval with low weight":
     * their score is multiplied by this, so a stated fact about as relevant ranks first.
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
            QueryReads reads, QueryRequest q, List<Scored> ranked, Set<String> allowed, Actor actor, Instant now) {
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
            QueryReads reads, QueryRequest q, Memory m, Set<String> returned, Set<String> allowed) {
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

    private boolean admissibleRelated(QueryReads reads, QueryRequest q, String id, Set<String> allowed) {
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
}
