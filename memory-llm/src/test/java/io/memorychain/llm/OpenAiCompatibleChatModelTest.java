package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiCompatibleChatModelTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VALID = "{\"insights\":[{\"summary\":\"User values directness.\",\"importance\":2}]}";

    private ScriptedChatServer server;
    private RecordingSleeper sleeper;
    private MutableClock clock;
    private List<UsageRecord> calls;
    private UsageCounters counters;
    private LlmRuntime runtime;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        sleeper = new RecordingSleeper();
        clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
        calls = new CopyOnWriteArrayList<>();
        counters = new UsageCounters();
        UsageListener recorder = calls::add;
        runtime = new LlmRuntime(new TokenBudget(clock), recorder.andThen(counters), sleeper, () -> 0.5);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private LlmConfig config() {
        return LlmConfig.of(server.baseUrl(), "test-model").withApiKey("sk-test");
    }

    private static JsonSchema schema() throws Exception {
        return new JsonSchema("tom_insights", JSON.readTree("""
                {"type":"object","required":["insights"],"additionalProperties":false,
                 "properties":{"insights":{"type":"array","items":{"type":"object","required":["summary","importance"],
                   "properties":{"summary":{"type":"string"},"importance":{"type":"integer"}}}}}}"""));
    }

    private static ChatRequest request(String tenant) throws Exception {
        return ChatRequest.of(
                        tenant,
                        "tom",
                        List.of(ChatMessage.system("You write insights."), ChatMessage.user("Recent activity: ...")))
                .withSchema(schema())
                .withMaxTokens(220);
    }

    @Test
    void sendsTheChatCompletionsRequestAndReturnsTheValidatedStructuredAnswer() throws Exception {
        server.replyContent(VALID, 120, 30);
        ChatModel model = new OpenAiCompatibleChatModel(config(), runtime);

        ChatResult result = model.complete(request("space-a"));

        assertThat(result).isInstanceOf(ChatResult.Completed.class);
        ChatResult.Completed completed = (ChatResult.Completed) result;
        assertThat(completed.json()).isEqualTo(JSON.readTree(VALID));
        assertThat(completed.content()).isEqualTo(VALID);
        assertThat(completed.model()).isEqualTo("scripted-model");
        assertThat(completed.usage()).isEqualTo(new TokenUsage(120, 30));
        assertThat(completed.attempts()).isEqualTo(1);

        assertThat(server.received()).hasSize(1);
        ScriptedChatServer.Received sent = server.received().get(0);
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer sk-test");
        assertThat(sent.header("Content-Type")).isEqualTo("application/json");
        JsonNode expected = JSON.readTree("""
                {"model":"test-model",
                 "messages":[{"role":"system","content":"You write insights."},
                             {"role":"user","content":"Recent activity: ..."}],
                 "temperature":0.0,
                 "max_tokens":220,
                 "response_format":{"type":"json_schema","json_schema":{"name":"tom_insights","strict":true,
                   "schema":%s}}}""".formatted(schema().schema()));
        assertThat(JSON.readTree(sent.body())).isEqualTo(expected);

        assertThat(calls)
                .containsExactly(new UsageRecord(
                        "space-a", "tom", "test-model", 120, 30, 1, calls.get(0).latency(), ChatOutcome.OK));
        assertThat(runtime.budget().used("space-a")).isEqualTo(150);
    }

    @Test
    void sendsNoAuthorizationHeaderWithoutApiKeyAndJsonObjectFormatWhenConfigured() throws Exception {
        server.replyContent(VALID, 10, 5);
        LlmConfig config =
                LlmConfig.of(server.baseUrl(), "test-model").withStructuredOutput(StructuredOutputMode.JSON_OBJECT);

        ChatResult result = new OpenAiCompatibleChatModel(config, runtime).complete(request("space-a"));

        assertThat(result.ok()).isTrue();
        ScriptedChatServer.Received sent = server.received().get(0);
        assertThat(sent.header("Authorization")).isNull();
        JsonNode body = JSON.readTree(sent.body());
        assertThat(body.get("response_format")).isEqualTo(JSON.readTree("{\"type\":\"json_object\"}"));
        JsonNode messages = body.get("messages");
        assertThat(messages).hasSize(3);
        assertThat(messages.get(2).get("role").asText()).isEqualTo("system");
        assertThat(messages.get(2).get("content").asText())
                .contains("JSON schema")
                .contains("\"insights\"");
    }

    @Test
    void retriesMalformedJsonContentAndChargesBothAttempts() throws Exception {
        server.replyContent("Sure! Here are the insights: {insights: oops", 100, 20);
        server.replyContent(VALID, 100, 25);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime).complete(request("space-a"));

        assertThat(result.ok()).isTrue();
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.usage()).isEqualTo(new TokenUsage(200, 45));
        assertThat(server.received()).hasSize(2);
        assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(375)); // 500 ms * (0.5 + 0.5 * 0.5)
        assertThat(runtime.budget().used("space-a")).isEqualTo(245);
    }

    @Test
    void failsBadResponseWhenEveryAttemptMissesARequiredProperty() throws Exception {
        server.replyContent("{\"thoughts\":[]}", 50, 5);
        server.replyContent("{\"insights\":[{\"summary\":\"User is curious.\"}]}", 50, 5);
        LlmConfig config = config().withRetries(2, Duration.ofMillis(500), Duration.ofSeconds(8));

        ChatResult result = new OpenAiCompatibleChatModel(config, runtime).complete(request("space-a"));

        assertThat(result).isInstanceOf(ChatResult.Failed.class);
        ChatResult.Failed failed = (ChatResult.Failed) result;
        assertThat(failed.outcome()).isEqualTo(ChatOutcome.BAD_RESPONSE);
        assertThat(failed.message()).contains("$.insights[0] misses required property 'importance'");
        assertThat(failed.attempts()).isEqualTo(2);
        assertThat(server.received()).hasSize(2);
        assertThat(runtime.budget().used("space-a")).isEqualTo(110);
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.outcome()).isEqualTo(ChatOutcome.BAD_RESPONSE);
            assertThat(call.promptTokens()).isEqualTo(100);
        });
    }

    @Test
    void honoursRetryAfterOfA429ThenSucceeds() throws Exception {
        server.replyStatus(429, Map.of("Retry-After", "3"), "{\"error\":{\"message\":\"slow down\"}}");
        server.replyContent(VALID, 10, 5);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime).complete(request("space-a"));

        assertThat(result.ok()).isTrue();
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void capsRetryAfterAtMaxBackoffAndReportsRateLimitedWhenAttemptsRunOut() throws Exception {
        server.replyStatus(429, Map.of("Retry-After", "120"), "{}");
        server.replyStatus(429, Map.of("Retry-After", "120"), "{}");
        LlmConfig config = config().withRetries(2, Duration.ofMillis(500), Duration.ofSeconds(8));

        ChatResult result = new OpenAiCompatibleChatModel(config, runtime).complete(request("space-a"));

        assertThat(result.outcome()).isEqualTo(ChatOutcome.RATE_LIMITED);
        assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(8));
    }

    @Test
    void retriesServerErrorsWithExponentialBackoffThenSucceeds() throws Exception {
        server.replyStatus(500, Map.of(), "{\"error\":\"boom\"}");
        server.replyStatus(503, Map.of(), "");
        server.replyContent(VALID, 10, 5);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime).complete(request("space-a"));

        assertThat(result.ok()).isTrue();
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(server.received()).hasSize(3);
        assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(375), Duration.ofMillis(750));
        assertThat(counters.totals("tom").calls(ChatOutcome.OK)).isEqualTo(1);
        assertThat(counters.totals("tom").attempts()).isEqualTo(3);
    }

    @Test
    void timesOutAReplySlowerThanTheRequestTimeoutAndRetriesIt() throws Exception {
        server.hang();
        server.hang();
        LlmConfig config = config().withRequestTimeout(Duration.ofMillis(300))
                .withRetries(2, Duration.ofMillis(500), Duration.ofSeconds(8));

        ChatResult result = new OpenAiCompatibleChatModel(config, runtime).complete(request("space-a"));

        assertThat(result.outcome()).isEqualTo(ChatOutcome.TIMEOUT);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.latency()).isGreaterThanOrEqualTo(Duration.ofMillis(600));
        assertThat(server.received()).hasSize(2);
        assertThat(sleeper.waits()).hasSize(1);
    }

    @Test
    void doesNotRetryUnauthorized() throws Exception {
        server.replyStatus(401, Map.of(), "{\"error\":{\"message\":\"invalid api key\"}}");
        server.replyContent(VALID, 10, 5);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime).complete(request("space-a"));

        assertThat(result.outcome()).isEqualTo(ChatOutcome.REJECTED);
        assertThat(((ChatResult.Failed) result).message())
                .startsWith("HTTP 401")
                .contains("invalid api key");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(server.received()).hasSize(1);
        assertThat(sleeper.waits()).isEmpty();
    }

    @Test
    void reportsServerErrorWhenNothingListensAfterRetrying() throws Exception {
        String deadUrl = server.baseUrl();
        server.close();
        LlmConfig config = LlmConfig.of(deadUrl, "test-model").withRequestTimeout(Duration.ofSeconds(2));

        ChatResult result = new OpenAiCompatibleChatModel(config, runtime).complete(request("space-a"));

        assertThat(result.outcome()).isEqualTo(ChatOutcome.SERVER_ERROR);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(375), Duration.ofMillis(750));
    }

    @Test
    void refusesATenantOverItsDailyBudgetWhileAnotherTenantStillWorksUntilTheNextUtcDay() throws Exception {
        server.replyContent(VALID, 80, 30); // space-a: 110 tokens, over the 100 budget
        server.replyContent(VALID, 40, 10); // space-b
        server.replyContent(VALID, 40, 10); // space-a, the next day
        ChatModel model = new OpenAiCompatibleChatModel(config().withDailyTokenBudget(100), runtime);

        assertThat(model.complete(request("space-a")).ok()).isTrue();
        ChatResult refused = model.complete(request("space-a"));
        ChatResult other = model.complete(request("space-b"));

        assertThat(refused.outcome()).isEqualTo(ChatOutcome.BUDGET_EXCEEDED);
        assertThat(refused.attempts()).isZero();
        assertThat(((ChatResult.Failed) refused).message()).contains("used 110 of its 100 tokens");
        assertThat(other.ok()).isTrue();
        assertThat(server.received()).hasSize(2);
        assertThat(counters.totals("tom").calls(ChatOutcome.BUDGET_EXCEEDED)).isEqualTo(1);

        clock.advance(Duration.ofHours(14)); // 2026-03-02T00:00Z
        assertThat(model.complete(request("space-a")).ok()).isTrue();
        assertThat(server.received()).hasSize(3);
    }

    @Test
    void stopsRetryingOnceAFailedAttemptsUsageExhaustsTheBudget() throws Exception {
        server.replyContent("not json at all", 90, 30);
        server.replyContent(VALID, 10, 5);
        ChatModel model = new OpenAiCompatibleChatModel(config().withDailyTokenBudget(100), runtime);

        ChatResult result = model.complete(request("space-a"));

        assertThat(result.outcome()).isEqualTo(ChatOutcome.BUDGET_EXCEEDED);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.usage()).isEqualTo(new TokenUsage(90, 30));
        assertThat(server.received()).hasSize(1);
        assertThat(runtime.budget().used("space-a")).isEqualTo(120);
    }

    @Test
    void returnsFreeTextWhenTheRequestHasNoSchema() throws Exception {
        server.replyContent("Just text.", 7, 3);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime)
                .complete(ChatRequest.of("space-a", "chat", List.of(ChatMessage.user("hi"))));

        assertThat(result).isInstanceOf(ChatResult.Completed.class);
        assertThat(((ChatResult.Completed) result).content()).isEqualTo("Just text.");
        assertThat(((ChatResult.Completed) result).json()).isNull();
        assertThat(JSON.readTree(server.received().get(0).body()).has("response_format"))
                .isFalse();
    }

    @Test
    void acceptsStructuredContentWrappedInACodeFence() throws Exception {
        server.replyContent("```json\n" + VALID + "\n```", 7, 3);

        ChatResult result = new OpenAiCompatibleChatModel(config(), runtime).complete(request("space-a"));

        assertThat(((ChatResult.Completed) result).json()).isEqualTo(JSON.readTree(VALID));
    }
}
