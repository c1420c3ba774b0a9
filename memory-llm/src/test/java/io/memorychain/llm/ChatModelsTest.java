package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChatModelsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptedChatServer server;
    private UsageCounters counters;
    private LlmRuntime runtime;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        counters = new UsageCounters();
        runtime = new LlmRuntime(
                new TokenBudget(new MutableClock(Instant.parse("2026-03-01T10:00:00Z"))),
                counters,
                new RecordingSleeper(),
                () -> 0.5);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static ChatRequest request() {
        return ChatRequest.of("agent-1", "refine", List.of(ChatMessage.user("hello")));
    }

    @Test
    void notConfiguredModelFailsWithoutAnyRequest() {
        ChatModels models = new ChatModels(LlmSettings.fromProperties(Map.of()), runtime);

        ChatModel model = models.forAgent("agent-1");
        ChatResult result = model.complete(request());

        assertThat(model.configured()).isFalse();
        assertThat(result.outcome()).isEqualTo(ChatOutcome.NOT_CONFIGURED);
        assertThat(result.attempts()).isZero();
        assertThat(server.received()).isEmpty();
        assertThat(counters.totals("refine").calls(ChatOutcome.NOT_CONFIGURED)).isEqualTo(1);
    }

    @Test
    void agentOverrideUsesTheAgentsOwnModelAndInheritsTheRest() throws Exception {
        server.replyContent("ok", 1, 1);
        server.replyContent("ok", 1, 1);
        ChatModels models = new ChatModels(
                LlmSettings.fromProperties(Map.of(
                        "memory.llm.base-url", server.baseUrl(),
                        "memory.llm.model", "default-model",
                        "memory.llm.api-key", "sk-default",
                        "memory.llm.agents.agent-1.model", "agent-1-model")),
                runtime);

        assertThat(models.forAgent("agent-1").complete(request()).ok()).isTrue();
        assertThat(models.forAgent("agent-2").complete(request()).ok()).isTrue();

        assertThat(server.received())
                .extracting(r -> JSON.readTree(r.body()).get("model").asText())
                .containsExactly("agent-1-model", "default-model");
        assertThat(server.received())
                .extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer sk-default", "Bearer sk-default");
        assertThat(models.forAgent("agent-2")).isSameAs(models.defaultModel());
    }
}
