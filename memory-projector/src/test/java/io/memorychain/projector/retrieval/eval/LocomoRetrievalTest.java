package io.memorychain.projector.retrieval.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.LocomoEvaluation.Report;
import io.memorychain.projector.search.SearchMode;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Retrieval on public data (docs/testing.md "Retrieval quality on public data"): LoCoMo's long conversations, every
 * turn one memory, each question scored on its evidence turns. TUNE (conv-26, conv-30) is where weights are chosen;
 * REPORT (conv-41, conv-42, conv-43) is only measured. Needs the release zip ({@code -Dlocomo.zip=...} or
 * {@code LOCOMO_ZIP}); without it the test is skipped, never passed. The floors are the measured figures rounded down
 * to two decimals.
 */
class LocomoRetrievalTest {

    private static final Path ZIP = Locomo.zip().orElse(null);
    private static List<Report> tune;
    private static List<Report> report;

    @BeforeAll
    static void evaluate() {
        if (ZIP != null) {
            tune = evaluate(ZIP, Locomo.TUNE, "TUNE");
            report = evaluate(ZIP, Locomo.REPORT, "REPORT");
        }
    }

    /** Each test is reported as skipped, with the reason, where the data is absent (an abort in @BeforeAll is not). */
    @BeforeEach
    void needsTheData() {
        Assumptions.assumeTrue(
                ZIP != null,
                "LoCoMo data absent: download locomo10.zip (snap-research/locomo,"
                        + " CC BY-NC 4.0) and run with -Dlocomo.zip=/path/to/locomo10.zip or LOCOMO_ZIP=/path/to/locomo10.zip");
    }

    private static List<Report> evaluate(Path zip, List<Integer> ids, String name) {
        List<Conversation> conversations = Locomo.read(zip, ids);
        int dropped =
                conversations.stream().mapToInt(Conversation::droppedEvidence).sum();
        int droppedQuestions =
                conversations.stream().mapToInt(Conversation::droppedQuestions).sum();
        try (LocomoSplit split = new LocomoSplit(conversations, SharedEmbedder.get())) {
            long started = System.nanoTime();
            List<Report> reports = List.of(
                    LocomoEvaluation.run("BM25", conversations, split.raw(SearchMode.BM25)),
                    LocomoEvaluation.run("VECTOR", conversations, split.raw(SearchMode.VECTOR)),
                    LocomoEvaluation.run("RRF", conversations, split.naiveRrf()),
                    LocomoEvaluation.run("PIPELINE", conversations, split.pipeline(RankingWeights.DEFAULTS)));
            System.out.println(LocomoEvaluation.table(
                    "LoCoMo " + name + " " + split.ids() + ": " + split.chain.size()
                            + " turns, " + split.questions() + " questions (" + dropped + " evidence references and "
                            + droppedQuestions + " questions without valid evidence dropped); written in "
                            + split.writeMillis + " ms, evaluated in " + (System.nanoTime() - started) / 1_000_000
                            + " ms",
                    reports));
            return reports;
        }
    }

    private static Report named(List<Report> reports, String name) {
        return reports.stream()
                .filter(r -> r.retriever().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Measured 2026-11-25 with e5-small-v2, the default model, and the date boosts (docs/architecture.md §7, dates),
     * all questions, hit@5 / hit@10 / recall@10 / MRR: REPORT 0.747 / 0.836 / 0.782 / 0.543, TUNE 0.728 / 0.825 / 0.778
     * / 0.507; without dates REPORT 0.711 / 0.790 / 0.736 / 0.503, TUNE 0.702 / 0.798 / 0.752 / 0.479. With MiniLM, the
     * former default, and dates: REPORT 0.673 / 0.783 / 0.731 / 0.480. Naive BM25 + MiniLM fusion, the issue's
     * baseline, scored REPORT hit@5 0.529. The same code measures slightly differently on CPUs with and without AVX-512
     * VNNI: ONNX Runtime's int8 matrix products take other kernels (VNNI accumulates exactly, AVX2 saturates), so the
     * quantized model's vectors differ in their last digits and a few ties flip. Measured again 2026-11-27 on an AMD
     * EPYC with AVX-512 VNNI: REPORT 0.748 / 0.836 / 0.782 / 0.538, TUNE 0.722 / 0.821 / 0.775 / 0.508. The floors hold
     * on both.
     */
    @Test
    void thePipelineStaysAtOrAboveItsMeasuredFloorsOnBothSplits() {
        assertFloors(named(report, "PIPELINE").overall(), 0.74, 0.83, 0.78, 0.53);
        // TUNE floors a little under the figures: memory ids are random and tie the order of equal BM25 scores (two
        // MiniLM runs gave hit@5 0.623 and 0.619)
        assertFloors(named(tune, "PIPELINE").overall(), 0.71, 0.81, 0.76, 0.49);
    }

    /**
     * The temporal questions (category 2) with the date boosts, measured 2026-11-25 with e5-small: REPORT 0.806 / 0.892
     * / 0.866 / 0.699, TUNE 0.873 / 0.937 / 0.937 / 0.751; without them REPORT 0.763 / 0.817 / 0.786 / 0.600, TUNE
     * 0.841 / 0.889 / 0.889 / 0.662. The floors (one question under the figures) fail if the gain of dates disappears.
     */
    @Test
    void temporalQuestionsKeepTheGainOfDates() {
        assertFloors(named(report, "PIPELINE").category(2), 0.79, 0.88, 0.85, 0.68);
        assertFloors(named(tune, "PIPELINE").category(2), 0.86, 0.92, 0.92, 0.73);
    }

    /**
     * Measured on REPORT with e5-small: hit@5 0.711 against naive RRF (BM25 + e5-small) 0.626, BM25 alone 0.563,
     * vectors alone 0.577.
     */
    @Test
    void thePipelineBeatsNaiveFusionAndEachSignalAloneOnBothSplits() {
        for (List<Report> split : List.of(tune, report)) {
            double pipeline = named(split, "PIPELINE").overall().hit5();
            assertThat(pipeline)
                    .isGreaterThan(named(split, "RRF").overall().hit5() + 0.05)
                    .isGreaterThan(named(split, "BM25").overall().hit5())
                    .isGreaterThan(named(split, "VECTOR").overall().hit5());
            assertThat(named(split, "PIPELINE").overall().mrr())
                    .isGreaterThan(named(split, "RRF").overall().mrr());
        }
    }

    private static void assertFloors(LocomoEvaluation.Means m, double hit5, double hit10, double recall10, double mrr) {
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(m.hit5()).as("hit@5").isGreaterThanOrEqualTo(hit5);
        soft.assertThat(m.hit10()).as("hit@10").isGreaterThanOrEqualTo(hit10);
        soft.assertThat(m.recall10()).as("recall@10").isGreaterThanOrEqualTo(recall10);
        soft.assertThat(m.mrr()).as("MRR").isGreaterThanOrEqualTo(mrr);
        soft.assertAll();
    }
}
