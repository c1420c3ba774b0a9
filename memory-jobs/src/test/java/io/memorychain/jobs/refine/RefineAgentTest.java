package io.memorychain.jobs.refine;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.TokenBudget;
import io.memorychain.llm.UsageCounters;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RefineAgentTest {

    private static final String NONE =
            "\"ids\":[],\"id\":\"\",\"content\":\"\",\"query\":\"\",\"reason\":\"\",\"summary\":\"\"";

    private ScriptedChatServer server;
    private RecordingTools tools;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        tools = new RecordingTools();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private ChatModels models(Map<String, String> extra) {
        Map<String, String> llm = new HashMap<>(Map.of(
                "memory.llm.base-url",
                server.baseUrl(),
                "memory.llm.model",
                "refine-model",
                "memory.llm.max-attempts",
                "2",
                "memory.llm.request-timeout",
                "5s"));
        llm.putAll(extra);
        return new ChatModels(
                LlmSettings.fromProperties(llm),
                new LlmRuntime(new TokenBudget(Clock.systemUTC()), new UsageCounters(), d -> {}, () -> 0.5));
    }

    private static String action(String json) {
        return "{" + json + "}";
    }

    private RefineOutcome run(RefineSettings settings) {
        return run(settings, Map.of());
    }

    private RefineOutcome run(RefineSettings settings, Map<String, String> llm) {
        return new RefineAgent(settings).run("space-1", models(llm).forAgent("space-1"), tools);
    }

    @Test
    void searchesConsolidatesAndCompletesWithItsSummaryAndSeesEachResult() {
        server.replyContent(
                action("\"action\":\"search\",\"ids\":[],\"id\":\"\",\"content\":\"\",\"query\":\"coffee\","
                        + "\"reason\":\"\",\"summary\":\"\""),
                100,
                20);
        server.replyContent(
                action("\"action\":\"consolidate\",\"ids\":[\"m1\",\"m2\"],\"id\":\"\",\"content\":"
                        + "\"User drinks black coffee.\",\"query\":\"\",\"reason\":\"same fact\",\"summary\":\"\""),
                100,
                20);
        server.replyContent(
                action("\"action\":\"complete\",\"ids\":[],\"id\":\"\",\"content\":\"\",\"query\":\"\","
                        + "\"reason\":\"\",\"summary\":\"Merged two coffee memories.\""),
                100,
                20);

        RefineOutcome outcome = run(RefineSettings.defaults());

        assertThat(outcome).isEqualTo(new RefineOutcome.Completed("Merged two coffee memories.", "line", 3, 360));
        assertThat(tools.calls)
                .containsExactly(
                        "search coffee",
                        "consolidate [m1, m2] User drinks black coffee. same fact",
                        "complete Merged two coffee memories.");
        assertThat(server.received().get(0).body()).contains("LEDGER").contains("refinement_action");
        assertThat(server.received().get(2).body()).contains("Result: consolidated into m9");
    }

    @Test
    void toleratesAReplyThatIsNotJsonByAskingAgain() {
        server.replyContent("I think we should merge them", 10, 5);
        server.replyContent(
                action("\"action\":\"complete\"," + NONE.replace("\"summary\":\"\"", "\"summary\":\"done\"")), 10, 5);

        RefineOutcome outcome = run(RefineSettings.defaults());

        assertThat(outcome).isInstanceOf(RefineOutcome.Completed.class);
        assertThat(server.received()).hasSize(2);
        assertThat(tools.calls).containsExactly("complete done");
    }

    @Test
    void retriesA429AndGoesOn() {
        server.replyStatus(429, Map.of("Retry-After", "0"), "{\"error\":\"slow down\"}");
        server.replyContent(
                action("\"action\":\"complete\"," + NONE.replace("\"summary\":\"\"", "\"summary\":\"ok\"")), 10, 5);

        assertThat(run(RefineSettings.defaults())).isInstanceOf(RefineOutcome.Completed.class);
        assertThat(server.received()).hasSize(2);
    }

    @Test
    void leavesTheSessionOpenWhenTheModelTimesOutOnEveryAttempt() {
        server.hang();
        server.hang();

        RefineOutcome outcome = run(RefineSettings.defaults(), Map.of("memory.llm.request-timeout", "300ms"));

        assertThat(outcome).isInstanceOf(RefineOutcome.LeftOpen.class);
        assertThat(((RefineOutcome.LeftOpen) outcome).reason())
                .contains("TIMEOUT")
                .contains("2 attempts");
        assertThat(tools.calls).isEmpty();
    }

    @Test
    void leavesTheSessionOpenWhen429PersistsAndNeverCompletesOnTheModelsBehalf() {
        server.replyStatus(429, Map.of("Retry-After", "0"), "{}");
        server.replyStatus(429, Map.of("Retry-After", "0"), "{}");

        RefineOutcome outcome = run(RefineSettings.defaults());

        assertThat(((RefineOutcome.LeftOpen) outcome).reason()).contains("RATE_LIMITED");
        assertThat(tools.calls).isEmpty();
    }

    @Test
    void reportsARefusalAndAnUnofferedProtectToTheAgentAndStopsAtTheStepBound() {
        server.replyContent(
                action("\"action\":\"delete\",\"ids\":[],\"id\":\"m1\",\"content\":\"\",\"query\":\"\","
                        + "\"reason\":\"old\",\"summary\":\"\""),
                10,
                5);
        server.replyContent(
                action("\"action\":\"protect\",\"ids\":[],\"id\":\"m2\",\"content\":\"\",\"query\":\"\","
                        + "\"reason\":\"\",\"summary\":\"\""),
                10,
                5);
        tools.refuseDeletes = true;

        RefineOutcome outcome = run(new RefineSettings(2, 10_000, 200, Duration.ofHours(2), false));

        assertThat(outcome)
                .isEqualTo(new RefineOutcome.LeftOpen("step bound reached: 2 steps without complete", 2, 30));
        assertThat(tools.calls).containsExactly("delete m1 old");
        assertThat(server.received().get(1).body()).contains("refused CONSTITUTIONAL: m1 is constitutional");
        assertThat(server.received().get(0).body()).doesNotContain("\\\"action\\\":\\\"protect\\\"");
    }

    @Test
    void stopsAtTheTokenBound() {
        server.replyContent(action("\"action\":\"search\"," + NONE), 90, 20);

        RefineOutcome outcome = run(new RefineSettings(5, 100, 200, Duration.ofHours(2), true));

        assertThat(((RefineOutcome.LeftOpen) outcome).reason()).startsWith("token bound reached: 110 of 100");
        assertThat(server.received()).hasSize(1);
    }

    /** Records the calls; the consolidation's new memory is m9. */
    private static final class RecordingTools implements SessionTools {
        final List<String> calls = new ArrayList<>();
        boolean refuseDeletes;

        @Override
        public String ledger() {
            return "LEDGER m1 m2";
        }

        @Override
        public String search(String query) {
            calls.add("search " + query);
            return "m1, m2";
        }

        @Override
        public String consolidate(List<String> ids, String content, String reason) {
            calls.add("consolidate " + ids + " " + content + " " + reason);
            return "m9";
        }

        @Override
        public String update(String id, String content) {
            calls.add("update " + id + " " + content);
            return "v2";
        }

        @Override
        public String delete(String id, String reason) {
            calls.add("delete " + id + " " + reason);
            if (refuseDeletes) {
                throw new Refused("CONSTITUTIONAL", id + " is constitutional");
            }
            return "deleted";
        }

        @Override
        public String protect(String id) {
            calls.add("protect " + id);
            return "protected";
        }

        @Override
        public String complete(String summary) {
            calls.add("complete " + summary);
            return "line";
        }
    }
}
