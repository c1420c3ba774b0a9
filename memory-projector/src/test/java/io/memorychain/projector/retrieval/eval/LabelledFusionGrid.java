package io.memorychain.projector.retrieval.eval;

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
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The labelled set under the fusion settings of {@link LocomoFusionGrid}: a constraint on the settings chosen on
 * LoCoMo TUNE (the set's floors must hold), never where they are chosen. Not part of the suite; run with
 * {@code -Dtest=LabelledFusionGrid}.
 */
class LabelledFusionGrid {

    @Test
    void printsTheLabelledSetUnderEachSetting() {
        RetrievalSet set = RetrievalSet.load();
        try (ChainHarness harness = new ChainHarness(SharedEmbedder.get())) {
            ChainedRetrievalSet chained = new ChainedRetrievalSet(set, harness);
            RankingWeights d = RankingWeights.DEFAULTS;
            for (double[] v : GridSettings.of(SETTINGS)) {
                RankingWeights w = new RankingWeights((int) v[4], v[0], v[5], v[1], v[2], d.decay(), d.importance(), d.recency(),
                        d.relation(), d.hopDecay());
                QueryService service = new QueryService(harness.views, harness.embedder, CategoryPolicy.unrestricted(),
                        new DecayModel(0), w, AccessRecorder.NONE, harness.clock);
                var actor = Requests.actor(ActorType.USER, "evaluator");
                EvaluationReport r = RetrievalEvaluation.run("P", set, (q, topK) -> service.query(new QueryRequest(
                                q.space(), null, q.text(), q.categories(), q.filters().toSearchFilters(set.referenceTime()),
                                topK, QueryRequest.Format.BULLETS, null, null, false, false, null, null), actor)
                        .items().stream().map(QueryResult.Item::id).map(chained::key).toList());
                StringBuilder types = new StringBuilder();
                r.byType().forEach((type, s) -> types.append(String.format(Locale.ROOT, " %s %.2f/%.2f", type.label(),
                        s.recallAt5(), s.mrr())));
                System.out.printf(Locale.ROOT, "LABELLED kw %.2f prev %.1f next %.1f cand %.0f covered %.1f  R@5 %.3f MRR %.3f |%s%n", v[0], v[1],
                        v[2], v[4], v[5], r.overall().recallAt5(), r.overall().mrr(), types);
            }
        }
    }

    private static final double[][] SETTINGS = {
        {0.3, 0.5, 0.2, 100, 40, 0.3}, {0.2, 0.5, 0.2, 100, 40, 0.6}, {0.3, 0.5, 0.2, 100, 40, 0.6},
        {0.3, 0.5, 0.2, 100, 40, 0.7}, {0.2, 0.5, 0.2, 100, 40, 0.8}, {0.3, 0.5, 0.2, 100, 40, 0.8},
        {0.3, 0.5, 0.2, 100, 80, 0.7}, {0.3, 0.5, 0.2, 100, 80, 0.8}};
}
