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
 * The whole {@code memory.query} pipeline (the set written through the real chain and embedder; hybrid fusion, entity
 * traversal over the set's links, rerank) on the labelled retrieval set, against the raw index's BM25-only and
 * vector-only modes on the same set. Decay is switched off here (lambda 0): the set's memories were written up to two
 * years before its reference time and never read, so the seed's decay would archive most of them and this would measure
 * forgetting, not retrieval ({@link #defaultDecayHidesOldUnreadMemories} measures that separately). The floors are the
 * measured figures rounded down to two decimals.
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
        System.out.println("memory.query pipeline vs single signals on the labelled set ("
                + set.memories().size() + " memories, " + set.queries().size() + " queries): recall@5 / MRR@10\n"
                + ReportTable.byType(all));
        System.out.println(ReportTable.misses(pipeline));
    }

    private static Retriever retriever(DecayModel decay) {
        QueryService service = new QueryService(
                harness.views,
                harness.embedder,
                CategoryPolicy.unrestricted(),
                decay,
                RankingWeights.DEFAULTS,
                AccessRecorder.NONE,
                harness.clock);
        var actor = Requests.actor(ActorType.USER, "evaluator");
        return (q, topK) -> {
            QueryRequest request = new QueryRequest(
                    q.space(),
                    null,
                    q.text(),
                    q.categories(),
                    q.filters().toSearchFilters(set.referenceTime()),
                    topK,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    false,
                    false,
                    null,
                    null);
            return service.query(request, actor).items().stream()
                    .map(QueryResult.Item::id)
                    .map(chained::key)
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
        assertThat(p.recallAt5())
                .isGreaterThan(bm25.overall().recallAt5())
                .isGreaterThan(vector.overall().recallAt5());
        assertThat(p.mrr())
                .isGreaterThan(bm25.overall().mrr())
                .isGreaterThan(vector.overall().mrr());
    }

    /**
     * Measured with e5-small-v2, the default model, the dates and the entity channel: 0.874 / 0.741 overall (BM25 0.578
     * / 0.556, vector 0.781 / 0.625); e5-small before dates and the entity channel 0.857 / 0.737. With
     * all-MiniLM-L6-v2, the default until LoCoMo chose e5-small (docs/testing.md "Retrieval quality on public data"),
     * this set gave 0.904 / 0.766 before and 0.912 / 0.784 with the entity channel: e5-small finds fewer of this set's
     * paraphrases (vector-only 0.694 against 0.855), while on the public set it is 0.07-0.09 hit@5 better. No fusion
     * setting recovered them (LabelledFusionGrid with {@code -Dembedding.model=e5-small}: 0.845-0.857 recall@5 over
     * nine settings). The same code measures slightly differently on CPUs with and without AVX-512 VNNI: ONNX Runtime's
     * int8 matrix products take other kernels (VNNI accumulates exactly, AVX2 saturates), so the quantized model's
     * vectors differ in their last digits and a few ties flip. Measured again 2026-11-27 on an AMD EPYC with AVX-512
     * VNNI: 0.869 / 0.740 overall; multihop 0.533 / 0.370 (one of 15 queries left the top 5), category 0.944 / 0.741,
     * the other types as before or better. The floors are the lower of the two machines' figures, rounded down.
     */
    @Test
    void staysAtOrAboveTheMeasuredFloors() {
        assertThat(pipeline.overall().recallAt5()).isGreaterThanOrEqualTo(0.86);
        assertThat(pipeline.overall().mrr()).isGreaterThanOrEqualTo(0.73);
        Map<QueryType, Scores> byType = pipeline.byType();
        SoftAssertions soft = new SoftAssertions();
        FLOORS_BY_TYPE.forEach((type, floor) -> {
            soft.assertThat(byType.get(type).recallAt5())
                    .as(type.label() + " recall@5")
                    .isGreaterThanOrEqualTo(floor[0]);
            soft.assertThat(byType.get(type).mrr()).as(type.label() + " MRR").isGreaterThanOrEqualTo(floor[1]);
        });
        soft.assertAll();
    }

    /**
     * Recall@5 and MRR per query type with e5-small-v2, the dates and the entity channel, measured and rounded down
     * (paraphrase MRR 0.580 one notch lower: memory ids are random and order equal scores). The entity channel raised
     * multi-hop (0.467 / 0.190 before it) and cost superseded one rank in one query (sup-q29: MRR 0.939 -> 0.864); one
     * temporal query fell out of the top 5 with them (0.976 -> 0.940). With MiniLM and the entity channel: paraphrase
     * 0.935 / 0.704, temporal 0.905 / 0.780, multihop 0.567 / 0.400, filtered 1.000 / 0.900, superseded 1.000 / 0.864,
     * category 0.944 / 0.926.
     */
    private static final Map<QueryType, double[]> FLOORS_BY_TYPE = Map.of(
            QueryType.PARAPHRASE, new double[] {0.77, 0.57},
            QueryType.EXACT, new double[] {1.00, 1.00},
            QueryType.TEMPORAL, new double[] {0.94, 0.80},
            QueryType.MULTIHOP, new double[] {0.53, 0.36},
            QueryType.FILTERED, new double[] {0.97, 0.91},
            QueryType.SUPERSEDED, new double[] {1.00, 0.86},
            QueryType.CATEGORY, new double[] {0.94, 0.74});

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
        assertThat(decayed.overall().recallAt5())
                .isLessThan(pipeline.overall().recallAt5())
                .isGreaterThan(0.8);
    }
}
