package io.memorychain.jobs.tom;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.Tier;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatOutcome;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.TokenBudget;
import io.memorychain.llm.UsageCounters;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TomInsightsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TomRun RUN = new TomRun(
            "space-1",
            "thread-9",
            4,
            10,
            Instant.parse("2026-03-02T09:00:03Z"),
            7,
            List.of("User asked again about the invoice."),
            List.of("User runs a bakery."),
            "User asked again about the invoice.");

    private ScriptedChatServer server;
    private TomMetrics metrics;
    private UsageCounters usage;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        metrics = new TomMetrics();
        usage = new UsageCounters();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TomInsights insights(Map<String, String> llm) {
        LlmRuntime runtime = new LlmRuntime(new TokenBudget(Clock.systemUTC()), usage, d -> {}, () -> 0.5);
        return new TomInsights(
                new ChatModels(LlmSettings.fromProperties(llm), runtime), TomSettings.defaults(), metrics);
    }

    private Map<String, String> model() {
        return Map.of("memory.llm.base-url", server.baseUrl(), "memory.llm.model", "tom-model");
    }

    @Test
    void publishesEachValidInsightAsAnInsightRequestOfWorkerTomWithDeterministicIds() throws Exception {
        server.replyContent("""
                {"insights":[
                  {"summary":"User gets terse when an issue repeats.","tags":["frustration"],"importance":2},
                  {"summary":"I believe the user is upset.","tags":[],"importance":2},
                  {"summary":"User trusts concrete follow-ups more than apologies.","tags":["trust"],"importance":5}]}""", 300, 60);

        List<MemoryRequest> requests = insights(model()).requests(RUN);

        assertThat(requests)
                .extracting(MemoryRequest::getRequestId)
                .containsExactly("tom:space-1:thread-9:4-10:0", "tom:space-1:thread-9:4-10:1");
        assertThat(requests).allSatisfy(r -> {
            assertThat(r.getSpace()).isEqualTo("space-1");
            assertThat(r.getActor().getType()).isEqualTo(ActorType.WORKER);
            assertThat(r.getActor().getId()).isEqualTo("tom");
            assertThat(r.getRequestedAt()).isEqualTo(RUN.triggeredAt());
            CreateMemory op = (CreateMemory) r.getOp();
            assertThat(op.getKind()).isEqualTo(MemoryKind.INSIGHT);
            assertThat(op.getTier()).isEqualTo(Tier.WORKING);
            assertThat(op.getCategory()).isEqualTo("relationship_dynamic");
            assertThat(op.getImportance()).isEqualTo(2);
            assertThat(op.getConfidence()).isEqualTo(Confidence.LOW);
            assertThat(op.getPinned()).isFalse();
            assertThat(op.getThreadId()).isEqualTo("thread-9");
            assertThat(op.getSource()).isEqualTo("tom:seq 4-10");
        });
        assertThat(((CreateMemory) requests.get(1).getOp()).getContent())
                .isEqualTo("User trusts concrete follow-ups more than apologies.");
        assertThat(((CreateMemory) requests.get(0).getOp()).getTags()).containsExactly("tom", "frustration");
        assertThat(metrics.dropped()).isEqualTo(1);
        assertThat(metrics.runs()).isEqualTo(1);

        JsonNode body = JSON.readTree(server.received().get(0).body());
        assertThat(body.get("model").asText()).isEqualTo("tom-model");
        assertThat(body.get("temperature").asDouble()).isZero();
        assertThat(body.get("max_tokens").asInt()).isEqualTo(220);
        assertThat(body.at("/response_format/json_schema/name").asText()).isEqualTo("tom_insights");
        assertThat(body.at("/messages/1/content").asText())
                .contains("User runs a bakery.")
                .contains("Recent conversation:\nUser asked again about the invoice.");
        assertThat(usage.totals("tom").promptTokens()).isEqualTo(300);
    }

    @Test
    void publishesNothingForAnAnswerWithoutAValidInsight() {
        server.replyContent("{\"insights\":[{\"summary\":\"We think so.\",\"tags\":[],\"importance\":2}]}", 10, 5);

        assertThat(insights(model()).requests(RUN)).isEmpty();
        assertThat(metrics.emptyAnswers()).isEqualTo(1);
        assertThat(metrics.dropped()).isEqualTo(1);
    }

    @Test
    void skipsWithNoModelWithoutAnyRequest() {
        assertThat(insights(Map.of()).requests(RUN)).isEmpty();
        assertThat(metrics.skippedNoModel()).isEqualTo(1);
        assertThat(server.received()).isEmpty();
    }

    @Test
    void countsAFailedCallAndPublishesNothing() {
        server.replyStatus(401, Map.of(), "{\"error\":\"bad key\"}");

        assertThat(insights(model()).requests(RUN)).isEmpty();
        assertThat(metrics.failures(ChatOutcome.REJECTED)).isEqualTo(1);
    }
}
