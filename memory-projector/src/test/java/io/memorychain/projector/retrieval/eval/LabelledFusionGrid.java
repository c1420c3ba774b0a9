package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.AccessRecorder;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.EntityChannel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The labelled set under the fusion settings of {@link LocomoFusionGrid}: a constraint on the settings chosen on LoCoMo
 * TUNE (the set's floors must hold), never where they are chosen. Not part of the suite; run with
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
                RankingWeights w = d.withFusion((int) v[4], v[0], v[5], v[1], v[2]);
                QueryService service = new QueryService(
                        harness.views,
                        harness.embedder,
                        CategoryPolicy.unrestricted(),
                        new DecayModel(0),
                        w,
                        AccessRecorder.NONE,
                        harness.clock);
                var actor = Requests.actor(ActorType.USER, "evaluator");
                EvaluationReport r = RetrievalEvaluation.run(
                        "P",
                        set,
                        (q, topK) -> service
                                .query(
                                        new QueryRequest(
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
                                                null),
                                        actor)
                                .items()
                                .stream()
                                .map(QueryResult.Item::id)
                                .map(chained::key)
                                .toList());
                StringBuilder types = new StringBuilder();
                r.byType()
                        .forEach((type, s) -> types.append(
                                String.format(Locale.ROOT, " %s %.2f/%.2f", type.label(), s.recallAt5(), s.mrr())));
                System.out.printf(
                        Locale.ROOT,
                        "LABELLED kw %.2f prev %.1f next %.1f cand %.0f covered %.1f  R@5 %.3f MRR %.3f |%s%n",
                        v[0],
                        v[1],
                        v[2],
                        v[4],
                        v[5],
                        r.overall().recallAt5(),
                        r.overall().mrr(),
                        types);
            }
        }
    }

    /**
     * The entity channel's weights (docs/architecture.md §7, {@code EntityChannel.Weights}) under the default fusion:
     * the labelled set is the only data with entity memories, so they are chosen here on its multi-hop queries with
     * every other type's floor as a constraint. Run with
     * {@code -Dtest=LabelledFusionGrid#printsTheLabelledSetUnderEachEntityChannelSetting}.
     */
    @Test
    void printsTheLabelledSetUnderEachEntityChannelSetting() {
        RetrievalSet set = RetrievalSet.load();
        try (ChainHarness harness = new ChainHarness(SharedEmbedder.get())) {
            ChainedRetrievalSet chained = new ChainedRetrievalSet(set, harness);
            var actor = Requests.actor(ActorType.USER, "evaluator");
            List<EntityChannel.Weights> grid = new ArrayList<>(List.of(EntityChannel.Weights.OFF));
            String given = System.getProperty("entity.grid");
            if (given != null) { // "weight,seed,hop,similar,floor;..."
                for (String setting : given.split(";")) {
                    double[] v = java.util.Arrays.stream(setting.split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray();
                    grid.add(new EntityChannel.Weights(v[0], v[1], v[2], v[3], v[4]));
                }
            } else {
                for (double weight : new double[] {0.5, 1.0, 1.5, 2.0}) {
                    for (double seed : new double[] {0.2, 0.5, 1.0}) {
                        for (double hop : new double[] {0.8, 1.0}) {
                            for (double floor : new double[] {0, 0.5}) {
                                grid.add(new EntityChannel.Weights(weight, seed, hop, 0.5, floor));
                            }
                        }
                    }
                }
            }
            EvaluationReport off = null;
            for (EntityChannel.Weights w : grid) {
                QueryService service = new QueryService(
                        harness.views,
                        harness.embedder,
                        CategoryPolicy.unrestricted(),
                        new DecayModel(0),
                        RankingWeights.DEFAULTS,
                        AccessRecorder.NONE,
                        harness.clock,
                        Reranker.NONE,
                        1,
                        w);
                EvaluationReport r = RetrievalEvaluation.run(
                        "P",
                        set,
                        (q, topK) -> service
                                .query(
                                        new QueryRequest(
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
                                                null),
                                        actor)
                                .items()
                                .stream()
                                .map(QueryResult.Item::id)
                                .map(chained::key)
                                .toList());
                StringBuilder types = new StringBuilder();
                r.byType()
                        .forEach((type, s) -> types.append(
                                String.format(Locale.ROOT, " %s %.3f/%.3f", type.label(), s.recallAt5(), s.mrr())));
                if (off == null) {
                    off = r;
                } else if (Boolean.getBoolean("entity.diff")) {
                    for (int i = 0; i < r.outcomes().size(); i++) {
                        QueryOutcome before = off.outcomes().get(i);
                        QueryOutcome after = r.outcomes().get(i);
                        if (before.firstHitRank() != after.firstHitRank()) {
                            System.out.printf(
                                    Locale.ROOT,
                                    "  %s %s rank %d -> %d %s expected %s got %s%n",
                                    after.query().id(),
                                    after.query().type().label(),
                                    before.firstHitRank(),
                                    after.firstHitRank(),
                                    after.query().text(),
                                    after.query().expected(),
                                    after.retrieved());
                        }
                    }
                }
                System.out.printf(
                        Locale.ROOT,
                        "ENTITY w %.1f seed %.1f hop %.1f similar %.1f from %.1f  R@5 %.3f MRR %.3f"
                                + " violations %d |%s%n",
                        w.weight(),
                        w.seed(),
                        w.hop(),
                        w.similar(),
                        w.from(),
                        r.overall().recallAt5(),
                        r.overall().mrr(),
                        r.overall().violations(),
                        types);
            }
        }
    }

    private static final double[][] SETTINGS = {
        {0.3, 0.5, 0.2, 100, 40, 0.3}, {0.2, 0.5, 0.2, 100, 40, 0.6}, {0.3, 0.5, 0.2, 100, 40, 0.6},
        {0.3, 0.5, 0.2, 100, 40, 0.7}, {0.2, 0.5, 0.2, 100, 40, 0.8}, {0.3, 0.5, 0.2, 100, 40, 0.8},
        {0.3, 0.5, 0.2, 100, 80, 0.7}, {0.3, 0.5, 0.2, 100, 80, 0.8}
    };
}
