package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.refinement.RefinementAgentJob;
import io.memorychain.llm.ScriptedChatServer;
import io.micronaut.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The refinement agent job (docs/architecture.md §9, "Run by the system") in the service: a session opened in the space
 * that has a model is run by the model (here a scripted OpenAI-compatible server) as worker:refinement-agent, its edits
 * land on the chain under the session, the session completes with the model's summary and the chain verifies; a session
 * the model leaves open is closed with the reason once it is older than the timeout. Run as a nested class of an
 * integration test whose service {@link SharedKafkaApplication} configured.
 */
public abstract class RefinementAgentContract {

    /** The only space with a model (memory.llm.agents.&lt;space&gt;): the agent runs no other space's sessions. */
    public static final String SPACE = "refineagent";
    /** The scripted model of {@link #SPACE}, shared by the service of the test JVM. */
    public static final ScriptedChatServer LLM = new ScriptedChatServer();

    private static final String ADMIN = "admin:ops";

    protected abstract MemoryApiContract api();

    protected abstract RefinementAgentJob job();

    private static String action(String action, List<String> ids, String content, String reason, String summary) {
        return """
                {"action":"%s","ids":[%s],"id":"","content":"%s","query":"","reason":"%s","summary":"%s"}""".formatted(
                action, String.join(",", ids.stream().map(i -> "\"" + i + "\"").toList()), content, reason, summary);
    }

    private String start() {
        MemoryApiContract.Resp started = api().as(
                        ADMIN,
                        HttpRequest.POST("/v1/spaces/" + SPACE + "/refinements", Map.of("reason", "agent test")));
        assertThat(started.status()).as(started.raw()).isEqualTo(201);
        return (String) started.json().get("session_id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theModelRunsAnOpenSessionToItsSummaryAndAStaleSessionIsClosedWithTheReason() {
        String first = api().createId(SPACE, "The user drinks black coffee every morning.", null, "core");
        String second = api().createId(SPACE, "Every morning the user has a black coffee.", null, "core");
        api().createId(SPACE, "The user lives in Oslo.", null, "core");
        LLM.replyContent(
                action(
                        "consolidate",
                        List.of(first, second),
                        "The user drinks black coffee every morning.",
                        "same fact",
                        ""),
                200,
                40);
        LLM.replyContent(action("complete", List.of(), "", "", "Merged the two coffee memories."), 250, 20);

        String session = start();

        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(api().get("/v1/spaces/" + SPACE + "/refinements/" + session)
                                .json())
                        .containsEntry("state", "completed"));
        MemoryApiContract.Resp closed = api().get("/v1/spaces/" + SPACE + "/refinements/" + session);
        assertThat(closed.json()).containsEntry("completed_by", Map.of("type", "worker", "id", "refinement-agent"));
        assertThat((String) closed.json().get("summary")).startsWith("Compressed 2 -> 1");
        assertThat(closed.list("edits"))
                .extracting(e -> e.get("event_type"))
                .containsExactly("MemoriesConsolidated", "RefinementCompleted");
        assertThat(LLM.received()).hasSize(2);
        assertThat(LLM.received().get(0).body()).contains(first).contains("The user lives in Oslo.");
        assertThat(LLM.received().get(1).body()).contains("Result: consolidated into m");
        assertThat(api().get("/v1/spaces/" + SPACE + "/memories/" + first).json())
                .containsEntry("state", "superseded");
        List<Map<String, Object>> journals =
                api().get("/v1/spaces/" + SPACE + "/memories?kind=journal").list("items");
        assertThat(journals)
                .singleElement()
                .satisfies(j -> assertThat((String) j.get("content")).endsWith("\n\nMerged the two coffee memories."));

        // a model that refuses the call leaves the session open; past the timeout the job closes it with the reason
        LLM.replyStatus(400, Map.of(), "{\"error\":{\"message\":\"context too long\"}}");
        String stale = start();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> LLM.received().size() == 3);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat((Map<String, Object>) job().figures()).containsEntry("left_open", 1L));
        assertThat(api().get("/v1/spaces/" + SPACE + "/refinements/" + stale).json())
                .containsEntry("state", "open");
        MemoryApiContract.Resp context = api().post(SPACE, "/context", Map.of("message", "hello"));
        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        assertThat(context.map("refinement"))
                .containsEntry("session_id", stale)
                .containsEntry("trigger", "admin")
                .containsKeys("started_at", "budget");

        job().check(SPACE, Instant.now().plus(Duration.ofHours(3)));

        MemoryApiContract.Resp timedOut = api().get("/v1/spaces/" + SPACE + "/refinements/" + stale);
        assertThat(timedOut.json())
                .containsEntry("state", "completed")
                .containsEntry("completed_by", Map.of("type", "worker", "id", "refinement-timeout"));
        assertThat(api().get("/v1/spaces/" + SPACE + "/memories?kind=journal").list("items"))
                .anySatisfy(j -> assertThat((String) j.get("content"))
                        .contains("Closed by timeout: open since")
                        .contains("longer than PT2H")
                        .contains("REJECTED"));
        assertThat(api().post(SPACE, "/context", Map.of("message", "hello"))
                        .json()
                        .get("refinement"))
                .isNull();
        assertThat(api().get("/v1/spaces/" + SPACE + "/chain/verify").json()).containsEntry("ok", true);

        // a space without a model: its open session waits for an outside agent, and /health says which spaces wait
        String unmodelled = SPACE + "-nomodel";
        api().createId(unmodelled, "The user likes tea.", null, "core");
        MemoryApiContract.Resp waiting = api().as(
                        ADMIN,
                        HttpRequest.POST(
                                "/v1/spaces/" + unmodelled + "/refinements", Map.of("reason", "no model here")));
        assertThat(waiting.status()).as(waiting.raw()).isEqualTo(201);
        job().check(unmodelled, Instant.now());
        assertThat((Map<String, Object>) job().figures())
                .extractingByKey("open_without_model")
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .contains(unmodelled);
        assertThat(api().get("/v1/spaces/" + unmodelled + "/refinements/"
                                + waiting.json().get("session_id"))
                        .json())
                .containsEntry("state", "open");
    }
}
