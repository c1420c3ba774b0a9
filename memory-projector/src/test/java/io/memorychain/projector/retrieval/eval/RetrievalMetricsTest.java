package io.memorychain.projector.retrieval.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {

    private static LabelledQuery query(String id, QueryType type, List<String> expected, List<String> mustNot) {
        return new LabelledQuery(id, "s", type, "text of " + id, null, null, null, expected, mustNot, null);
    }

    private static RetrievalSet setOf(LabelledQuery... queries) {
        return new RetrievalSet(null, Instant.EPOCH, List.of(), List.of(), List.of(), List.of(), List.of(queries));
    }

    @Test
    void recallAtKCountsExpectedKeysInTheFirstK() {
        List<String> ranked = List.of("x", "a", "y", "z", "w", "b");

        assertThat(RetrievalMetrics.recallAt(5, ranked, List.of("a", "b"))).isEqualTo(0.5);
        assertThat(RetrievalMetrics.recallAt(6, ranked, List.of("a", "b"))).isEqualTo(1.0);
        assertThat(RetrievalMetrics.recallAt(5, ranked, List.of("q"))).isZero();
        assertThat(RetrievalMetrics.recallAt(5, List.of(), List.of("a"))).isZero();
    }

    @Test
    void reciprocalRankIsOneOverTheRankOfTheFirstExpectedKeyWithinTen() {
        assertThat(RetrievalMetrics.reciprocalRank(List.of("a", "b"), List.of("a")))
                .isEqualTo(1.0);
        assertThat(RetrievalMetrics.reciprocalRank(List.of("x", "y", "b", "a"), List.of("a", "b")))
                .isCloseTo(1.0 / 3, within(1e-12));
        List<String> eleven = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "a");
        assertThat(RetrievalMetrics.reciprocalRank(eleven, List.of("a"))).isZero();
        assertThat(RetrievalMetrics.reciprocalRank(eleven, List.of("10"))).isEqualTo(0.1);
    }

    @Test
    void violationsAreMustNotKeysAnywhereInTheResult() {
        assertThat(RetrievalMetrics.violations(List.of("a", "old", "b", "older"), List.of("older", "old", "gone")))
                .containsExactly("old", "older");
    }

    @Test
    void evaluationAveragesPerQueryAndPerType() {
        LabelledQuery p1 = query("p1", QueryType.PARAPHRASE, List.of("a"), List.of());
        LabelledQuery p2 = query("p2", QueryType.PARAPHRASE, List.of("b", "c"), List.of());
        LabelledQuery s1 = query("s1", QueryType.SUPERSEDED, List.of("d"), List.of("old"));
        RetrievalSet set = setOf(p1, p2, s1);
        Map<String, List<String>> answers = Map.of(
                "p1", List.of("a"), // recall 1, RR 1
                "p2", List.of("x", "c", "y", "z", "w", "b"), // recall 1/2 (b is 6th), RR 1/2
                "s1", List.of("old", "e", "f", "d")); // recall 1, RR 1/4, one violation

        EvaluationReport report = RetrievalEvaluation.run("fixed", set, (q, k) -> answers.get(q.id()));

        assertThat(report.overall().queries()).isEqualTo(3);
        assertThat(report.overall().recallAt5()).isCloseTo((1 + 0.5 + 1) / 3, within(1e-12));
        assertThat(report.overall().mrr()).isCloseTo((1 + 0.5 + 0.25) / 3, within(1e-12));
        assertThat(report.overall().violations()).isEqualTo(1);
        assertThat(report.byType()).containsOnlyKeys(QueryType.PARAPHRASE, QueryType.SUPERSEDED);
        assertThat(report.byType().get(QueryType.PARAPHRASE).recallAt5()).isEqualTo(0.75);
        assertThat(report.byType().get(QueryType.SUPERSEDED).mrr()).isEqualTo(0.25);
        assertThat(report.misses()).extracting(o -> o.query().id()).isEmpty();
        assertThat(report.outcomes().get(2).firstHitRank()).isEqualTo(4);
        assertThat(ReportTable.byType(List.of(report))).contains("paraphrase", "superseded", "all");
    }

    @Test
    void aQueryWhoseFirstExpectedKeyIsBelowFiveIsAMiss() {
        LabelledQuery q = query("q", QueryType.EXACT, List.of("a"), List.of());
        RetrievalSet set = setOf(q);

        EvaluationReport report =
                RetrievalEvaluation.run("late", set, (query, k) -> List.of("1", "2", "3", "4", "5", "a"));

        assertThat(report.misses()).extracting(o -> o.query().id()).containsExactly("q");
        assertThat(report.overall().mrr()).isCloseTo(1.0 / 6, within(1e-12));
    }

    @Test
    void rejectsARetrieverThatReturnsTooManyOrRepeatedKeys() {
        LabelledQuery q = query("q", QueryType.EXACT, List.of("a"), List.of());
        RetrievalSet set = setOf(q);

        assertThatThrownBy(() -> RetrievalEvaluation.run("dup", set, (query, k) -> List.of("a", "a")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("duplicates");
        assertThatThrownBy(() -> RetrievalEvaluation.run(
                        "long", set, (query, k) -> List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")))
                .isInstanceOf(IllegalStateException.class);
    }
}
