package io.memorychain.projector.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RerankingTest {

    private final MovableClock clock = new MovableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<List<String>> calls = new ArrayList<>();

    private static Map<String, Double> fused() {
        Map<String, Double> relevance = new LinkedHashMap<>();
        relevance.put("a", 1.0);
        relevance.put("b", 0.8);
        relevance.put("c", 0.5);
        relevance.put("d", 0.2);
        return relevance;
    }

    private Reranker scripted(List<Double> scores) {
        return (query, texts) -> {
            calls.add(texts);
            return scores;
        };
    }

    @Test
    void theTopNAreReorderedByTheRerankerWithinTheirRelevanceBand() {
        Reranking reranking = new Reranking(scripted(List.of(0.1, 0.9, 0.5)), 3, clock);
        Map<String, Double> relevance = fused();

        reranking.apply("q", relevance, id -> "text " + id);

        assertThat(calls).containsExactly(List.of("text a", "text b", "text c"));
        assertThat(relevance)
                .containsEntry("b", 1.0)
                .containsEntry("c", 0.75)
                .containsEntry("a", 0.5)
                .containsEntry("d", 0.2);
    }

    @Test
    void candidatesWithoutTextAreLeftOutAndTheNextOnesTakeTheirPlace() {
        Reranking reranking = new Reranking(scripted(List.of(0.2, 0.7)), 2, clock);
        Map<String, Double> relevance = fused();

        reranking.apply("q", relevance, id -> "a".equals(id) ? null : "text " + id);

        assertThat(calls).containsExactly(List.of("text b", "text c"));
        assertThat(relevance).containsEntry("a", 1.0).containsEntry("c", 1.0).containsEntry("b", 0.5);
    }

    @Test
    void aFailingRerankerKeepsTheFusedOrderAndIsReportedAtMostOncePerMinute() {
        Reranking reranking = new Reranking(
                (query, texts) -> {
                    throw new IllegalStateException("HTTP 500");
                },
                3,
                clock);
        Map<String, Double> relevance = fused();

        reranking.apply("q", relevance, id -> id);
        assertThat(relevance).isEqualTo(fused());
        assertThat(reranking.unreportedFailures())
                .as("the first failure is logged")
                .isZero();

        clock.now = clock.now.plusSeconds(30);
        reranking.apply("q", relevance, id -> id);
        reranking.apply("q", relevance, id -> id);
        assertThat(reranking.unreportedFailures())
                .as("within the minute: counted, not logged")
                .isEqualTo(2);

        clock.now = clock.now.plus(Duration.ofSeconds(31));
        reranking.apply("q", relevance, id -> id);
        assertThat(reranking.unreportedFailures())
                .as("a minute later: logged with the count")
                .isZero();
        assertThat(relevance).isEqualTo(fused());
    }

    @Test
    void aReplyWithTheWrongNumberOfScoresOrANonFiniteOneKeepsTheFusedOrder() {
        for (List<Double> scores : List.of(List.of(0.5), List.of(0.5, Double.NaN, 0.1))) {
            Map<String, Double> relevance = fused();
            new Reranking(scripted(scores), 3, clock).apply("q", relevance, id -> id);
            assertThat(relevance).isEqualTo(fused());
        }
    }

    @Test
    void noRerankerIsNeverCalled() {
        Map<String, Double> relevance = fused();

        new Reranking(Reranker.NONE, 5, clock).apply("q", relevance, id -> id);

        assertThat(relevance).isEqualTo(fused());
    }
}
