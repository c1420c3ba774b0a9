package io.memorychain.projector.retrieval.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.AccessRecorder;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.SearchMode;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole {@code memory.query} pipeline (the set written through the real chain and embedder; hybrid fusion,
 * entity traversal over the set's links, rerank) on the labelled retrieval set, against the raw index's BM25-only and
 * vector-only modes on the same set. Decay is switched off here (lambda 0): the set's memories were written up to two
 * years before its reference time and never read, so the seed's decay would archive most of them and this would
 * measure forgetting, not retrieval ({@link #defaultDecayHidesOldUnreadMemories} measures that separately).
 * The floors are the measured figures rounded down to two decimals.
 */
class PipelineRetrievalTest {

    private static RetrievalSet set;
    private static ChainHarness harness;
    private static ChainedRetrievalSet chained;
    private static IndexedRetrievalSet raw;
    private static EvaluationReport pipeline;
    private static EvaluationReport bm25;
    private static EvaluationReport vector;

    @BeforeAll
    static void evaluate() {
        set = RetrievalSet.load();
        harness = new ChainHarness(SharedEmbedder.get());
        chained = new ChainedRetrievalSet(set, harness);
        pipeline = RetrievalEvaluation.run("PIPELINE", set, retriever(new DecayModel(0)));
        raw = IndexedRetrievalSet.build(set, SharedEmbedder.get(), IndexSettings.DEFAULTS);
        bm25 = RetrievalEvaluation.run("BM25", set, raw.retriever(SearchMode.BM25));
        vector = RetrievalEvaluation.run("VECTOR", set, raw.retriever(SearchMode.VECTOR));
        List<EvaluationReport> all = List.of(bm25, vector, pipeline);
        System.out.println("memory.query pipeline vs single signals on the labelled set (" + set.memories().size()
                + " memories, " + set.queries().size() + " queries): recall@5 / MRR@10\n" + ReportTable.byType(all));
        System.out.println(ReportTable.misses(pipeline));
    }

    private static Retriever retriever(DecayModel decay) {
        QueryService service = new QueryService(harness.views, harness.embedder, CategoryPolicy.unrestricted(), decay,
                RankingWeights.DEFAULTS, AccessRecorder.NONE, harness.clock);
        var actor = Requests.actor(ActorType.USER, "evaluator");
        return (q, topK) -> {
            QueryRequest request = new QueryRequest(q.space(), null, q.text(), q.categories(),
                    q.filters().toSearchFilters(set.referenceTime()), topK, QueryRequest.Format.BULLETS, null, null,
                    false, false, null, null);
            return service.query(request, actor).items().stream().map(QueryResult.Item::id).map(chained::key)
                    .toList();
        };
    }

    @AfterAll
    static void close() {
        if (raw != null) {
            raw.close();
        }
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void thePipelineBeatsKeywordsOnlyAndVectorsOnly() {
        Scores p = pipeline.overall();
        assertThat(p.recallAt5()).isGreaterThan(bm25.overall().recallAt5()).isGreaterThan(vector.overall().recallAt5());
        assertThat(p.mrr()).isGreaterThan(bm25.overall().mrr()).isGreaterThan(vector.overall().mrr());
    }

    /**
     * Measured 0.912 / 0.784 overall (BM25 0.578 / 0.556, vector 0.806 / 0.693) with the entity channel
     * ({@code EntityChannel.Weights#DEFAULTS}); 0.904 / 0.766 with the former traversal from entities among the
     * candidates, 0.887 / 0.747 before the fusion chosen on LoCoMo TUNE.
     */
    @Test
    void staysAtOrAboveTheMeasuredFloors() {
        assertThat(pipeline.overall().recallAt5()).isGreaterThanOrEqualTo(0.91);
        assertThat(pipeline.overall().mrr()).isGreaterThanOrEqualTo(0.78);
        Map<QueryType, Scores> byType = pipeline.byType();
        SoftAssertions soft = new SoftAssertions();
        FLOORS_BY_TYPE.forEach((type, floor) -> {
            soft.assertThat(byType.get(type).recallAt5()).as(type.label() + " recall@5").isGreaterThanOrEqualTo(floor[0]);
            soft.assertThat(byType.get(type).mrr()).as(type.label() + " MRR").isGreaterThanOrEqualTo(floor[1]);
        });
        soft.assertAll();
    }

    /**
     * Recall@5 and MRR per query type, measured and rounded down. The LoCoMo-tuned fusion raised paraphrase, exact and
     * temporal and cost one rank in a few queries elsewhere: filtered 0.92 -> 0.90, superseded 0.95 -> 0.90 (measured
     * 0.900, 0.909); temporal MRR measured 0.7798. The entity channel raised multi-hop from 0.500 / 0.219 to 0.567 /
     * 0.400 and cost superseded one rank in one query (sup-q29 names Orchard Lane, whose own plan fact now ranks
     * first and the expected one second): MRR 0.909 -> 0.864.
     */
    private static final Map<QueryType, double[]> FLOORS_BY_TYPE = Map.of(
            QueryType.PARAPHRASE, new double[] {0.93, 0.70},
            QueryType.EXACT, new double[] {1.00, 1.00},
            QueryType.TEMPORAL, new double[] {0.90, 0.77},
            QueryType.MULTIHOP, new double[] {0.56, 0.40},
            QueryType.FILTERED, new double[] {1.00, 0.90},
            QueryType.SUPERSEDED, new double[] {1.00, 0.86},
            QueryType.CATEGORY, new double[] {0.94, 0.92});

    @Test
    void neverReturnsAMemoryThatMustNotAppear() {
        assertThat(pipeline.overall().violations()).isZero();
    }

    @Test
    void defaultDecayDemotesOldUnreadMemoriesButNeverHidesThemWithoutAnArchivalEvent() {
        EvaluationReport decayed = RetrievalEvaluation.run("PIPELINE+DECAY", set, retriever(DecayModel.standard()));
        System.out.println("with the seed's decay (lambda 0.03, nothing ever read): " + decayed.overall());
        // decay reorders (recall@5 0.904 -> 0.879 measured 2026-11-25) but hides nothing: before the lifecycle events
        // the query-time status archived every memory unread for ~3 months and recall@5 fell to 0.42
        assertThat(decayed.overall().recallAt5()).isLessThan(pipeline.overall().recallAt5()).isGreaterThan(0.8);
    }
}
