package io.memorychain.projector.retrieval.eval;

import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.TemporalQuery;
import io.memorychain.projector.retrieval.TemporalWeights;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.LocomoEvaluation.Means;
import io.memorychain.projector.retrieval.eval.LocomoEvaluation.Report;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The temporal weights on LoCoMo TUNE only (never REPORT): the pipeline with each setting of {@link TemporalWeights},
 * printed per category (docs/architecture.md §7, dates). Not part of the suite (no "Test" suffix); run with
 * {@code -Dtest=LocomoTemporalGrid -Dlocomo.zip=...}.
 */
class LocomoTemporalGrid {

    /** dateMatch:whenMentions pairs, {@code -Dtemporal.settings=0:0,0.3:0.5}. */
    private static final double[][] SETTINGS = java.util.Arrays.stream(System.getProperty(
                            "temporal.settings", "0:0,0:0.05,0:0.1,0:0.2,0:0.3,0:0.5,0.1:0,0.2:0,0.3:0,0.5:0,1:0")
                    .split(","))
            .map(p -> java.util.Arrays.stream(p.split(":"))
                    .mapToDouble(Double::parseDouble)
                    .toArray())
            .toArray(double[][]::new);

    @Test
    void printsTheGrid() {
        Path zip = Locomo.zip().orElse(null);
        Assumptions.assumeTrue(zip != null, "LoCoMo data absent: run with -Dlocomo.zip=/path/to/locomo10.zip");
        List<Conversation> conversations = Locomo.read(zip, Locomo.TUNE);
        try (LocomoSplit split = new LocomoSplit(conversations, SharedEmbedder.get())) {
            LocalDate asked = LocalDate.ofInstant(split.harness.clock.instant(), ZoneOffset.UTC);
            for (int category = 1; category <= 5; category++) {
                int c = category;
                List<TemporalQuery> parsed = conversations.stream()
                        .flatMap(x -> x.questions().stream())
                        .filter(q -> q.category() == c)
                        .map(q -> TemporalQuery.of(q.text(), asked))
                        .toList();
                System.out.printf(
                        Locale.ROOT,
                        "TEMPORAL category %d: %d questions, %d name a date, %d ask when" + " without one%n",
                        c,
                        parsed.size(),
                        parsed.stream().filter(t -> !t.spans().isEmpty()).count(),
                        parsed.stream()
                                .filter(t -> t.spans().isEmpty() && t.asksWhen())
                                .count());
            }
            for (double[] v : SETTINGS) {
                Report r = LocomoEvaluation.run(
                        "P", conversations, split.pipeline(RankingWeights.DEFAULTS, new TemporalWeights(v[0], v[1])));
                StringBuilder line = new StringBuilder(
                        String.format(Locale.ROOT, "TEMPORAL dateMatch %.2f whenMentions %.2f", v[0], v[1]));
                for (int category = 1; category <= 5; category++) {
                    line.append(format(" c" + category, r.category(category)));
                }
                line.append(format(" all", r.overall()));
                System.out.println(line);
            }
        }
    }

    private static String format(String label, Means m) {
        return String.format(Locale.ROOT, "%s %.3f/%.3f/%.3f/%.3f", label, m.hit5(), m.hit10(), m.recall10(), m.mrr());
    }
}
