package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.retrieval.AccessRecorder;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.Reranker;
import io.memorychain.projector.retrieval.TemporalWeights;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.LocomoEvaluation.TurnRetriever;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Some LoCoMo conversations written through one {@link ChainHarness} ({@link LocomoChain}), and the retrievers the
 * evaluation compares on them: the raw index in BM25 or VECTOR mode, naive reciprocal rank fusion of the two, and the
 * {@code memory.query} pipeline.
 */
public final class LocomoSplit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocomoSplit.class);
    /** Naive RRF: {@code sum 1 / (60 + rank)} over the BM25 and vector top 100. */
    static final int RRF_K = 60;

    static final int RRF_DEPTH = 100;

    public final List<Conversation> conversations;
    public final ChainHarness harness;
    public final LocomoChain chain;
    public final long writeMillis;
    private final Embedder embedder;
    private final Map<String, float[]> queryVectors = new ConcurrentHashMap<>();

    public LocomoSplit(List<Conversation> conversations, Embedder embedder) {
        this.conversations = conversations;
        this.embedder = embedder;
        long started = System.nanoTime();
        harness = new ChainHarness(embedder);
        chain = new LocomoChain(harness, conversations);
        writeMillis = (System.nanoTime() - started) / 1_000_000;
        log.info("LoCoMo {}: {} turns written through the chain in {} ms", ids(), chain.size(), writeMillis);
    }

    public String ids() {
        return conversations.stream().map(c -> "conv-" + c.id()).toList().toString();
    }

    public int questions() {
        return conversations.stream().mapToInt(c -> c.questions().size()).sum();
    }

    /** The memory ids of the conversation's turns, in turn order. */
    public List<String> ids(Conversation c) {
        return chain.ids(c.space());
    }

    private float[] vector(String text) {
        return queryVectors.computeIfAbsent(text, embedder::embedQuery);
    }

    private List<Hit> raw(Conversation c, String text, SearchMode mode, int k) {
        SearchRequest.Builder b = SearchRequest.builder(c.space()).mode(mode).topK(k);
        if (mode != SearchMode.VECTOR) {
            b.text(text);
        }
        if (mode != SearchMode.BM25) {
            b.vector(vector(text));
        }
        return harness.views.search(b.build());
    }

    /** The raw index in this mode. */
    public TurnRetriever raw(SearchMode mode) {
        return (c, q, k) ->
                raw(c, q.text(), mode, k).stream().map(h -> chain.turn(h.id())).toList();
    }

    /** Naive reciprocal rank fusion of the BM25 and the vector top {@value #RRF_DEPTH}, k = {@value #RRF_K}. */
    public TurnRetriever naiveRrf() {
        return (c, q, k) -> {
            Map<String, Double> fused = new HashMap<>();
            for (SearchMode mode : List.of(SearchMode.BM25, SearchMode.VECTOR)) {
                List<Hit> hits = raw(c, q.text(), mode, RRF_DEPTH);
                for (int rank = 1; rank <= hits.size(); rank++) {
                    fused.merge(hits.get(rank - 1).id(), 1.0 / (RRF_K + rank), Double::sum);
                }
            }
            return fused.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue()
                            .reversed()
                            .thenComparing(Map.Entry::getKey))
                    .limit(k)
                    .map(e -> chain.turn(e.getKey()))
                    .toList();
        };
    }

    /**
     * {@code memory.query} with these weights, decay off (lambda 0: nothing was ever read, as in
     * {@code PipelineRetrievalTest}), asked at the harness's time (the day after the last turn).
     */
    public TurnRetriever pipeline(RankingWeights weights) {
        return pipeline(weights, TemporalWeights.DEFAULTS);
    }

    /** {@link #pipeline(RankingWeights)} with these temporal weights. */
    public TurnRetriever pipeline(RankingWeights weights, TemporalWeights temporal) {
        QueryService service = new QueryService(
                harness.views,
                harness.embedder,
                CategoryPolicy.unrestricted(),
                new DecayModel(0),
                weights,
                AccessRecorder.NONE,
                harness.clock,
                Reranker.NONE,
                1,
                temporal);
        var actor = Requests.actor(ActorType.USER, "evaluator");
        return (c, q, k) -> service
                .query(
                        new QueryRequest(
                                c.space(),
                                null,
                                q.text(),
                                List.of(),
                                SearchFilters.NONE,
                                k,
                                QueryRequest.Format.BULLETS,
                                null,
                                null,
                                false,
                                false,
                                null,
                                null),
                        actor)
                .items()
                .stream()
                .map(QueryResult.Item::id)
                .map(chain::turn)
                .filter(Objects::nonNull)
                .toList();
    }

    @Override
    public void close() {
        harness.close();
    }
}
