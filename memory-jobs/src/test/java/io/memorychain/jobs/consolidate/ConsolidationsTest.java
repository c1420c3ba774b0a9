package io.memorychain.jobs.consolidate;

import static io.memorychain.jobs.consolidate.ConsolidatePlannerTest.NOW;
import static io.memorychain.jobs.consolidate.ConsolidatePlannerTest.at;
import static io.memorychain.jobs.consolidate.ConsolidatePlannerTest.base;
import static io.memorychain.jobs.consolidate.ConsolidatePlannerTest.item;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatOutcome;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.TokenBudget;
import io.memorychain.llm.UsageCounters;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Consolidations} against memory-llm's scripted OpenAI-compatible server. */
class ConsolidationsTest {

    /** The planner's rules on synthetic cosines, with the band calibrated for MiniLM (0.80, 0.99). */
    private static final ConsolidateSettings MINILM_BAND =
            ConsolidateSettings.forModel(EmbeddingModel.MINILM.thresholds());

    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptedChatServer server;
    private ConsolidateMetrics metrics;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        metrics = new ConsolidateMetrics();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Consolidations consolidations(Map<String, String> llm) {
        LlmRuntime runtime =
                new LlmRuntime(new TokenBudget(Clock.systemUTC()), new UsageCounters(), d -> {}, () -> 0.5);
        return new Consolidations(new ChatModels(LlmSettings.fromProperties(llm), runtime), MINILM_BAND, metrics);
    }

    private Map<String, String> model() {
        return Map.of(
                "memory.llm.base-url", server.baseUrl(), "memory.llm.model", "judge", "memory.llm.max-attempts", "1");
    }

    /** One near-exact pair (x1~x2) and {@code checked} band pairs (a0~b0, a1~b1, ...), each in its own direction. */
    private static ConsolidatePlanner.Plan plan(int checked) {
        List<MemoryItem> memories = new ArrayList<>();
        memories.add(item("x1", "Alice is allergic to peanuts.", base()));
        memories.add(item("x2", "alice is allergic to peanuts", at(0.995)));
        for (int i = 0; i < checked; i++) {
            // orthogonal planes per pair: no cross-pair similarity
            float[] a = new float[2 + 2 * checked];
            float[] b = new float[2 + 2 * checked];
            a[2 + 2 * i] = 1f;
            b[2 + 2 * i] = 0.9f;
            b[3 + 2 * i] = (float) Math.sqrt(1 - 0.81);
            memories.add(item("a" + i, "Project Atlas fact " + i, a));
            memories.add(item("b" + i, "Project Atlas detail " + i, b));
        }
        // x1/x2 need the same length
        float[] x1 = new float[2 + 2 * checked];
        float[] x2 = new float[2 + 2 * checked];
        System.arraycopy(base(), 0, x1, 0, 2);
        System.arraycopy(at(0.995), 0, x2, 0, 2);
        memories.set(0, memories.get(0).withVector(x1));
        memories.set(1, memories.get(1).withVector(x2));
        return new ConsolidatePlanner(MINILM_BAND)
                .plan("space-1", memories, NOW)
                .orElseThrow();
    }

    @Test
    void nearExactPairsMergeWithoutAnyModelCall() {
        List<MemoryRequest> requests = consolidations(Map.of()).requests(plan(3));

        assertThat(requests).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("consolidate:space-1:x1,x2:1,1");
            assertThat(r.getActor().getType()).isEqualTo(ActorType.WORKER);
            assertThat(r.getActor().getId()).isEqualTo("consolidate");
            assertThat(r.getRequestedAt()).isEqualTo(NOW);
            ConsolidateMemories op = (ConsolidateMemories) r.getOp();
            assertThat(op.getIds()).containsExactly("x1", "x2");
            assertThat(op.getReason()).contains("near-exact duplicate, cosine 0.99");
        });
        assertThat(server.received()).isEmpty();
        assertThat(metrics.calls()).isZero();
    }

    @Test
    void aBatchAnswerMergesTheSameFactsWithTheModelsText() throws Exception {
        server.replyContent("""
                {"pairs":[{"id":"p1","same_fact":true,"merged":"Project Atlas fact 0, in detail."},
                          {"id":"p2","same_fact":false,"merged":""},
                          {"id":"p3","same_fact":true,"merged":"Project Atlas fact 2, in detail."}]}""", 400, 90);

        List<MemoryRequest> requests = consolidations(model()).requests(plan(3));

        assertThat(requests)
                .extracting(MemoryRequest::getRequestId)
                .containsExactly(
                        "consolidate:space-1:x1,x2:1,1",
                        "consolidate:space-1:a0,b0:1,1",
                        "consolidate:space-1:a2,b2:1,1");
        ConsolidateMemories op = (ConsolidateMemories) requests.get(1).getOp();
        assertThat(op.getContent()).isEqualTo("Project Atlas fact 0, in detail.");
        assertThat(op.getReason()).contains("same fact per model judge").contains("(lexical)");
        assertThat(server.received()).hasSize(1);
        JsonNode body = JSON.readTree(server.received().get(0).body());
        assertThat(body.at("/response_format/json_schema/name").asText()).isEqualTo("same_fact_pairs");
        assertThat(body.get("temperature").asDouble()).isZero();
        assertThat(body.at("/messages/1/content").asText())
                .contains("p1:\n  A: Project Atlas fact 0")
                .contains("p3:");
        assertThat(metrics.calls()).isEqualTo(1);
        assertThat(metrics.tokens()).isEqualTo(490);
        assertThat(metrics.sameFact()).isEqualTo(2);
    }

    @Test
    void checksAtMostBatchSizePairsPerPrompt() {
        String all = "{\"pairs\":[]}";
        server.replyContent(all, 10, 1);
        server.replyContent(all, 10, 1);

        consolidations(model()).requests(plan(12));

        assertThat(server.received()).hasSize(2); // 8 + 4
        assertThat(metrics.checked()).isEqualTo(12);
    }

    @Test
    void malformedJsonPublishesNothingForTheBatch() {
        server.replyContent("{\"pairs\": [ not json", 10, 1);

        assertThat(consolidations(model()).requests(plan(2)))
                .extracting(MemoryRequest::getRequestId)
                .containsExactly("consolidate:space-1:x1,x2:1,1");
        assertThat(metrics.failures(ChatOutcome.BAD_RESPONSE)).isEqualTo(1);
    }

    @Test
    void anAnswerNamingAnUnknownPairPublishesNothingForTheBatch() {
        server.replyContent("""
                {"pairs":[{"id":"p1","same_fact":true,"merged":"x"},{"id":"p9","same_fact":true,"merged":"y"}]}""", 10, 1);

        assertThat(consolidations(model()).requests(plan(2))).hasSize(1);
        assertThat(metrics.invalidAnswers()).isEqualTo(1);
    }

    @Test
    void aRateLimitedCallIsCountedAndPublishesNothingForTheBatch() {
        server.replyStatus(429, Map.of("Retry-After", "1"), "{\"error\":{\"message\":\"slow down\"}}");

        assertThat(consolidations(model()).requests(plan(2))).hasSize(1);
        assertThat(metrics.failures(ChatOutcome.RATE_LIMITED)).isEqualTo(1);
    }
}
