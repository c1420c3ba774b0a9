package io.memorychain.projector.retrieval.eval;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.TemporalWeights;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.LocomoEvaluation.Report;
import io.memorychain.projector.search.SearchMode;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The LoCoMo evaluation of {@link LocomoRetrievalTest} with each embedding model ({@code -Dlocomo.models=minilm,
 * bge-small,e5-small}): the four retrievers on TUNE and REPORT, and the embedding time of the TUNE turns (one
 * {@code embedAll}) and of the questions (one {@code embedQuery} each). NO-DATES is the pipeline without the temporal
 * boosts ({@link TemporalWeights#NONE}, docs/architecture.md §7, dates). Not part of the suite (no "Test" suffix); run
 * with {@code -Dtest=LocomoModelComparison -Dlocomo.zip=...}.
 */
class LocomoModelComparison {

    @Test
    void printsEachModel() {
        Path zip = Locomo.zip().orElse(null);
        Assumptions.assumeTrue(zip != null, "LoCoMo data absent: run with -Dlocomo.zip=/path/to/locomo10.zip");
        List<Conversation> tune = Locomo.read(zip, Locomo.TUNE);
        List<Conversation> report = Locomo.read(zip, Locomo.REPORT);
        for (String name :
                System.getProperty("locomo.models", "minilm,bge-small,e5-small").split(",")) {
            EmbeddingModel model = EmbeddingModel.fromConfigName(name.trim());
            try (OnnxSentenceEmbedder embedder = OnnxSentenceEmbedder.create(model)) {
                List<String> turns = tune.stream()
                        .flatMap(c -> c.turns().stream())
                        .map(Locomo.Turn::content)
                        .toList();
                long started = System.nanoTime();
                embedder.embedAll(turns);
                long turnsMs = (System.nanoTime() - started) / 1_000_000;
                long[] queryNanos = tune.stream()
                        .flatMap(c -> c.questions().stream())
                        .mapToLong(q -> {
                            long t = System.nanoTime();
                            embedder.embedQuery(q.text());
                            return System.nanoTime() - t;
                        })
                        .sorted()
                        .toArray();
                System.out.printf(
                        Locale.ROOT,
                        "MODEL %s: %d TUNE turns embedded in %d ms (%.2f ms each); question"
                                + " embedding p50 %.2f ms, p95 %.2f ms%n",
                        model.configName(),
                        turns.size(),
                        turnsMs,
                        turnsMs / (double) turns.size(),
                        queryNanos[queryNanos.length / 2] / 1e6,
                        queryNanos[(int) (queryNanos.length * 0.95)] / 1e6);
                for (List<Conversation> split : List.of(tune, report)) {
                    try (LocomoSplit s = new LocomoSplit(split, embedder)) {
                        List<Report> reports = Arrays.asList(
                                LocomoEvaluation.run("BM25", split, s.raw(SearchMode.BM25)),
                                LocomoEvaluation.run("VECTOR", split, s.raw(SearchMode.VECTOR)),
                                LocomoEvaluation.run("RRF", split, s.naiveRrf()),
                                LocomoEvaluation.run(
                                        "NO-DATES", split, s.pipeline(RankingWeights.DEFAULTS, TemporalWeights.NONE)),
                                LocomoEvaluation.run("PIPELINE", split, s.pipeline(RankingWeights.DEFAULTS)));
                        System.out.println(LocomoEvaluation.table(
                                "MODEL " + model.configName() + " " + s.ids() + " (written in " + s.writeMillis
                                        + " ms)",
                                reports));
                    }
                }
            }
        }
    }
}
