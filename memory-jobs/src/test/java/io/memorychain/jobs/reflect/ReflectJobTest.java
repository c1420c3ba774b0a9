package io.memorychain.jobs.reflect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionMilestone;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatOutcome;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.TokenBudget;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.ChainHarness;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reflection job's logic (docs/architecture.md §18) against the real sequencer and projection on TopologyTestDriver
 * ({@link ChainHarness}) and a scripted chat-completions server: triggers, the five phases, the output token cap, model
 * failures, the pending reflection on the chain, its approval, and replays.
 */
class ReflectJobTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SPACE = "acme-main";
    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "main");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");

    private final ChainHarness h = new ChainHarness();
    private ScriptedChatServer server;
    private ReflectMetrics metrics;
    private int fed;

    @BeforeEach
    void start() {
        server = new ScriptedChatServer();
        metrics = new ReflectMetrics();
    }

    @AfterEach
    void stop() {
        server.close();
        h.close();
    }

    private ReflectWorker worker(ReflectSettings settings, Map<String, String> llm) {
        LlmRuntime runtime =
                new LlmRuntime(new TokenBudget(Clock.systemUTC()), new UsageCounters(), d -> {}, () -> 0.5);
        return new ReflectWorker(
                h.registry,
                settings,
                new ReflectionEngine(new ChatModels(LlmSettings.fromProperties(llm), runtime), settings, metrics));
    }

    private Map<String, String> model(String... more) {
        Map<String, String> m = new HashMap<>(Map.of(
                "memory.llm.base-url",
                server.baseUrl(),
                "memory.llm.model",
                "reflector",
                "memory.llm.max-attempts",
                "1"));
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    private String write(MemoryKind kind, String thread, String content) {
        MemoryOutcome o = h.submit(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder()
                        .setKind(kind)
                        .setThreadId(thread)
                        .setContent(content)
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    /** Feeds the chain events not fed yet; the runs they planned. */
    private List<ReflectRun> feed(ReflectWorker worker) {
        List<ReflectRun> runs = new ArrayList<>();
        List<MemoryEvent> chain = h.chain();
        for (; fed < chain.size(); fed++) {
            worker.onEvent(chain.get(fed)).ifPresent(runs::add);
        }
        return runs;
    }

    private void scriptPhases(String fact, String episode) {
        server.replyContent("{\"priorities\":[\"the launch date\"]}", 900, 40);
        server.replyContent(
                "{\"guidance\":\"first reflection: look for decisions\","
                        + "\"evolution_insights\":[\"Ana decides after reviews\"]}",
                500,
                60);
        server.replyContent(
                "{\"changes\":["
                        + "{\"type\":\"create_memory\",\"content\":\"Ana moves launches after reviews\",\"importance\":4,"
                        + "\"reason\":\"two episodes\"},"
                        + "{\"type\":\"update_memory\",\"memory_id\":\"" + fact
                        + "\",\"content\":\"Launch is on Friday\","
                        + "\"reason\":\"the episode moved it\"},"
                        + "{\"type\":\"link_memories\",\"memory_id\":\"" + episode + "\",\"to_id\":\"" + fact + "\","
                        + "\"relation_type\":\"decided-on\",\"reason\":\"the episode decided it\"},"
                        + "{\"type\":\"update_memory\",\"memory_id\":\"m9999999zzzz\",\"content\":\"x\",\"reason\":\"y\"}],"
                        + "\"contradictions\":[\"Thursday vs Friday\"]}",
                900,
                200);
        server.replyContent(
                "{\"block_edits\":[{\"label\":\"goals\",\"content\":\"Ship on Friday\","
                        + "\"reason\":\"active context\"},{\"label\":\"secrets\",\"content\":\"x\",\"reason\":\"y\"}]}",
                700,
                50);
        server.replyContent(
                "{\"summary\":\"# Reflection Summary\\n- launch moved to Friday\","
                        + "\"questions\":[\"Pin the launch date?\"]}",
                800,
                90);
    }

    @Test
    void aManualRequestRunsTheFivePhasesIntoAPendingReflectionThatAPartialApprovalApplies() throws Exception {
        String episode = write(MemoryKind.EPISODIC, "t1", "Ana moved the launch to Friday after the review");
        String fact = write(MemoryKind.SEMANTIC, null, "Launch is on Thursday");
        ReflectWorker worker = worker(ReflectSettings.defaults(), model());
        assertThat(feed(worker)).as("no trigger yet").isEmpty();
        assertThat(h.submit(Requests.requestReflection(SPACE, USER, "reflect on your memories"))
                        .getAccepted())
                .isTrue();

        List<ReflectRun> runs = feed(worker);
        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.trigger()).isEqualTo(ReflectionTrigger.MANUAL);
            assertThat(run.toSeq()).isEqualTo(3);
            assertThat(run.episodes()).extracting(m -> m.getId()).containsExactly(episode);
        });
        scriptPhases(fact, episode);
        List<MemoryRequest> requests = worker.execute(runs.get(0));

        assertThat(server.received()).hasSize(5);
        List<String> schemas = new ArrayList<>();
        List<Integer> caps = new ArrayList<>();
        for (ScriptedChatServer.Received r : server.received()) {
            JsonNode body = JSON.readTree(r.body());
            schemas.add(body.path("response_format")
                    .path("json_schema")
                    .path("name")
                    .asText());
            caps.add(body.path("max_tokens")
                    .asInt(body.path("max_completion_tokens").asInt()));
        }
        assertThat(schemas)
                .containsExactly(
                        "reflection_survey",
                        "reflection_meta",
                        "reflection_consolidate",
                        "reflection_core",
                        "reflection_summary");
        assertThat(caps).as("what is left of the 8,000-token output cap").containsExactly(8000, 7960, 7900, 7700, 7650);
        MemoryRequest request = requests.get(0);
        assertThat(requests).hasSize(1);
        assertThat(request.getRequestId()).isEqualTo("reflect:" + SPACE + ":3");
        assertThat(request.getActor()).isEqualTo(ReflectionEngine.ACTOR);
        ReflectionDocument doc = ((ProposeReflection) request.getOp()).getReflection();
        assertThat(doc.getChanges())
                .extracting(ReflectionChange::getChangeId, ReflectionChange::getType)
                .as("the unknown id and the unknown label are dropped")
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("c1", ReflectionChangeType.CREATE_MEMORY),
                        org.assertj.core.groups.Tuple.tuple("c2", ReflectionChangeType.UPDATE_MEMORY),
                        org.assertj.core.groups.Tuple.tuple("c3", ReflectionChangeType.LINK_MEMORIES),
                        org.assertj.core.groups.Tuple.tuple("c4", ReflectionChangeType.UPDATE_BLOCK));
        assertThat(metrics.droppedChanges()).isEqualTo(2);
        assertThat(doc.getOutputTokens()).isEqualTo(440);
        assertThat(doc.getEvolutionInsights()).containsExactly("Ana decides after reviews");
        assertThat(doc.getContradictions()).containsExactly("Thursday vs Friday");
        assertThat(doc.getQuestions()).containsExactly("Pin the launch date?");
        assertThat(doc.getSummary()).startsWith("# Reflection Summary").contains("**Token budget used**: 440 / 8000");

        MemoryOutcome proposed = h.submit(request);
        assertThat(proposed.getAccepted()).as(proposed.getMessage()).isTrue();
        String id = proposed.getMemoryId();
        assertThat(h.views.reflection(SPACE, id).orElseThrow().getStatus()).isEqualTo(ReflectionStatus.PENDING);
        assertThat(h.views.memory(SPACE, fact).orElseThrow().getContent())
                .as("never auto-applied")
                .isEqualTo("Launch is on Thursday");
        write(MemoryKind.EPISODIC, "t1", "Ana asked for the release notes");
        h.submit(Requests.requestReflection(SPACE, USER, "again"));
        assertThat(feed(worker)).as("nothing while a reflection is pending").isEmpty();

        MemoryOutcome decided = h.submit(Requests.decideReflection(
                SPACE,
                USER,
                id,
                ReflectionDecisionType.PARTIAL,
                "not the goals",
                List.of("c1", "c2", "c3"),
                List.of()));
        assertThat(decided.getAccepted()).as(decided.getMessage()).isTrue();
        Reflection r = h.views.reflection(SPACE, id).orElseThrow();
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PARTIALLY_APPROVED);
        assertThat(h.views.memory(SPACE, fact).orElseThrow().getContent()).isEqualTo("Launch is on Friday");
        assertThat(h.views.memory(SPACE, r.getMemoryIds().get(0)).orElseThrow().getContent())
                .isEqualTo("Ana moves launches after reviews");
        assertThat(h.views.block(SPACE, "goals")).isEmpty();

        List<ReflectRun> next = feed(worker);
        assertThat(next)
                .as("the queued manual request runs once the reflection is decided")
                .singleElement()
                .satisfies(run -> {
                    assertThat(run.number()).isEqualTo(2);
                    assertThat(run.past()).extracting(Reflection::getId).containsExactly(id);
                    assertThat(run.episodes()).hasSize(1);
                });

        ReflectWorker replayed = worker(ReflectSettings.defaults(), model());
        List<ReflectRun> again = new ArrayList<>();
        for (MemoryEvent e : h.chain()) {
            replayed.onEvent(e).ifPresent(again::add);
        }
        assertThat(again)
                .extracting(ReflectRun::requestId)
                .as("a replay plans the same runs")
                .containsExactly(runs.get(0).requestId(), next.get(0).requestId());
        int events = h.chain().size();
        MemoryOutcome repeated = h.submit(request);
        assertThat(repeated.getMemoryId()).isEqualTo(id);
        assertThat(h.chain()).as("the repeated request id appends nothing").hasSize(events);
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
    }

    @Test
    void thresholdSessionEndAndScheduleTrigger() {
        ReflectSettings settings = ReflectSettings.defaults().withThreshold(3);
        ReflectWorker worker = worker(settings, Map.of());
        write(MemoryKind.EPISODIC, null, "one");
        write(MemoryKind.EPISODIC, null, "two");
        assertThat(feed(worker)).isEmpty();
        write(MemoryKind.EPISODIC, null, "three");
        assertThat(feed(worker)).singleElement().satisfies(run -> {
            assertThat(run.trigger()).isEqualTo(ReflectionTrigger.THRESHOLD);
            assertThat(run.detail()).isEqualTo("3 unprocessed episodes");
        });

        try (ChainHarness other = new ChainHarness()) {
            ReflectWorker w = worker(settings, Map.of());
            List<ReflectRun> runs = new ArrayList<>();
            other.submit(Requests.create(
                    SPACE,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setKind(MemoryKind.EPISODIC)
                            .setThreadId("t7")
                            .setContent("talked about the launch")
                            .build()));
            other.now = other.now.plus(Duration.ofMinutes(29));
            other.submit(Requests.create(SPACE, AGENT, "a fact"));
            other.chain().forEach(e -> w.onEvent(e).ifPresent(runs::add));
            assertThat(runs).as("29 minutes idle is not the end").isEmpty();
            other.now = other.now.plus(Duration.ofMinutes(2));
            other.submit(Requests.create(SPACE, AGENT, "another fact"));
            w.onEvent(other.chain().get(other.chain().size() - 1)).ifPresent(runs::add);
            assertThat(runs).singleElement().satisfies(run -> {
                assertThat(run.trigger()).isEqualTo(ReflectionTrigger.SESSION_END);
                assertThat(run.detail()).isEqualTo("thread t7");
            });
        }

        try (ChainHarness other = new ChainHarness()) {
            ReflectWorker w = worker(settings, Map.of());
            other.submit(Requests.create(
                    SPACE,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setKind(MemoryKind.EPISODIC)
                            .setContent("no thread")
                            .build()));
            other.now = other.now.plus(Duration.ofHours(23));
            other.submit(Requests.create(SPACE, AGENT, "a fact"));
            other.now = other.now.plus(Duration.ofHours(1));
            other.submit(Requests.create(SPACE, AGENT, "a day later"));
            List<Optional<ReflectRun>> runs =
                    other.chain().stream().map(w::onEvent).toList();
            assertThat(runs.get(1)).isEmpty();
            assertThat(runs.get(2))
                    .hasValueSatisfying(run -> assertThat(run.trigger()).isEqualTo(ReflectionTrigger.SCHEDULE));
        }
    }

    private ReflectRun manualRun(ReflectWorker worker) {
        write(MemoryKind.EPISODIC, null, "Ana moved the launch");
        h.submit(Requests.requestReflection(SPACE, USER, null));
        return feed(worker).get(0);
    }

    @Test
    void withoutAModelNothingIsPublished() {
        ReflectWorker worker = worker(ReflectSettings.defaults(), Map.of());
        assertThat(worker.execute(manualRun(worker))).isEmpty();
        assertThat(metrics.skippedNoModel()).isEqualTo(1);
        assertThat(server.received()).isEmpty();
    }

    @Test
    void badJsonRateLimitsAndTimeoutsPublishNothing() {
        ReflectWorker worker = worker(ReflectSettings.defaults(), model("memory.llm.request-timeout", "2s"));
        ReflectRun run = manualRun(worker);
        server.replyContent("{\"priorities\": [not json", 10, 5);
        assertThat(worker.execute(run)).isEmpty();
        server.replyStatus(429, Map.of("Retry-After", "1"), "{\"error\":{\"message\":\"slow down\"}}");
        assertThat(worker.execute(run)).isEmpty();
        server.replyContent("{\"priorities\":[\"x\"]}", 10, 5);
        server.hang();
        assertThat(worker.execute(run)).isEmpty();
        assertThat(metrics.failures(ChatOutcome.BAD_RESPONSE)).isEqualTo(1);
        assertThat(metrics.failures(ChatOutcome.RATE_LIMITED)).isEqualTo(1);
        assertThat(metrics.failures(ChatOutcome.TIMEOUT)).isEqualTo(1);
        assertThat(metrics.proposed()).isZero();
    }

    @Test
    void theOutputTokenCapStopsThePhasesAndTheSummaryIsRenderedWithoutTheModel() throws Exception {
        ReflectWorker worker = worker(ReflectSettings.defaults().withOutputTokenCap(200), model());
        ReflectRun run = manualRun(worker);
        server.replyContent("{\"priorities\":[\"the launch\"]}", 900, 150);

        List<MemoryRequest> requests = worker.execute(run);

        assertThat(server.received()).hasSize(1);
        assertThat(JSON.readTree(server.received().get(0).body())
                        .path("max_tokens")
                        .asInt())
                .isEqualTo(200);
        ReflectionDocument doc = ((ProposeReflection) requests.get(0).getOp()).getReflection();
        assertThat(doc.getOutputTokens()).isEqualTo(150);
        assertThat(doc.getOutputTokenCap()).isEqualTo(200);
        assertThat(doc.getChanges()).isEmpty();
        assertThat(doc.getSummary()).startsWith("# Reflection #1").contains("- the launch");
        assertThat(metrics.capReached()).isEqualTo(1);
        MemoryOutcome o = h.submit(requests.get(0));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
    }

    /** Nine decided reflections proposed straight to the sequencer, so that the worker's next one is the 10th. */
    private void nineReflections() {
        for (int i = 1; i <= 9; i++) {
            ReflectionDocument doc = ReflectionDocument.newBuilder()
                    .setTrigger(ReflectionTrigger.MANUAL)
                    .setNumber(i)
                    .setFromSeq(0)
                    .setToSeq(0)
                    .setSummary("# Reflection " + i)
                    .setEvolutionInsights(List.of("insight " + i))
                    .build();
            MemoryOutcome o = h.submit(Requests.proposeReflection(SPACE, ReflectionEngine.ACTOR, doc));
            assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
            assertThat(h.submit(Requests.decideReflection(
                                    SPACE,
                                    USER,
                                    o.getMemoryId(),
                                    ReflectionDecisionType.APPROVE,
                                    null,
                                    List.of(),
                                    List.of()))
                            .getAccepted())
                    .isTrue();
        }
    }

    @Test
    void theTenthReflectionIsTheSummaryMilestoneWithArchivalAndProcedureProposalsAndTheEleventhIsOrdinary()
            throws Exception {
        nineReflections();
        String stale = write(MemoryKind.SEMANTIC, null, "Discussed an unrelated CSS bug in December");
        write(MemoryKind.EPISODIC, "t1", "Deployed: build, staging, smoke test, promote");
        ReflectWorker worker = worker(ReflectSettings.defaults(), model());
        h.submit(Requests.requestReflection(SPACE, USER, null));
        ReflectRun tenth = feed(worker).get(0);
        assertThat(tenth.number()).as("counted from the chain's reflections").isEqualTo(10);

        server.replyContent("{\"priorities\":[\"deploys\"]}", 900, 20);
        server.replyContent("{\"guidance\":\"patterns\",\"evolution_insights\":[\"Ana likes checklists\"]}", 500, 20);
        server.replyContent(
                "{\"milestone\":\"Initial patterns: Ana works in checklists.\","
                        + "\"evolution_insights\":[\"Ana's work is procedural\"]}",
                800,
                30);
        server.replyContent(
                "{\"changes\":["
                        + "{\"type\":\"archive_memory\",\"memory_id\":\"" + stale
                        + "\",\"reason\":\"unrelated, stale\"},"
                        + "{\"type\":\"create_procedure\",\"content\":\"1. build 2. staging 3. smoke test 4. promote\","
                        + "\"summary\":\"deploy workflow\",\"reason\":\"the episode's steps\"},"
                        + "{\"type\":\"archive_memory\",\"memory_id\":\"m9999999zzzz\",\"reason\":\"unknown id\"},"
                        + "{\"type\":\"create_procedure\",\"content\":\" \",\"reason\":\"no steps\"}],"
                        + "\"contradictions\":[]}",
                900,
                40);
        server.replyContent("{\"block_edits\":[]}", 700, 10);
        server.replyContent("{\"summary\":\"# Reflection Summary\\n- a deploy procedure\",\"questions\":[]}", 800, 20);
        List<MemoryRequest> requests = worker.execute(tenth);

        assertThat(server.received()).hasSize(6);
        JsonNode milestoneCall = JSON.readTree(server.received().get(2).body());
        assertThat(milestoneCall
                        .path("response_format")
                        .path("json_schema")
                        .path("name")
                        .asText())
                .isEqualTo("reflection_milestone");
        assertThat(milestoneCall.path("messages").get(0).path("content").asText())
                .contains("FIRST EVOLUTION SUMMARY");
        assertThat(milestoneCall.path("messages").get(1).path("content").asText())
                .contains("insight 9");
        ReflectionDocument doc = ((ProposeReflection) requests.get(0).getOp()).getReflection();
        assertThat(doc.getMilestone()).isEqualTo(ReflectionMilestone.SUMMARY);
        assertThat(doc.getSummary())
                .startsWith("## Evolution milestone: first evolution summary")
                .contains("Initial patterns: Ana works in checklists.")
                .contains("# Reflection Summary")
                .contains("**Reflection #**: 10 (milestone: first evolution summary)");
        assertThat(doc.getEvolutionInsights()).containsExactly("Ana likes checklists", "Ana's work is procedural");
        assertThat(doc.getChanges())
                .extracting(ReflectionChange::getType)
                .as("the unknown id and the empty procedure are dropped")
                .containsExactly(ReflectionChangeType.ARCHIVE_MEMORY, ReflectionChangeType.CREATE_PROCEDURE);
        assertThat(metrics.milestones()).isEqualTo(1);

        MemoryOutcome proposed = h.submit(requests.get(0));
        assertThat(proposed.getAccepted()).as(proposed.getMessage()).isTrue();
        Reflection pending = h.views.reflection(SPACE, proposed.getMemoryId()).orElseThrow();
        assertThat(pending.getStatus()).isEqualTo(ReflectionStatus.PENDING);
        assertThat(pending.getDocument().getMilestone()).isEqualTo(ReflectionMilestone.SUMMARY);
        assertThat(h.views.memory(SPACE, stale).orElseThrow().getState())
                .as("never auto-applied")
                .isEqualTo(MemoryState.ACTIVE);
        MemoryOutcome approved = h.submit(Requests.decideReflection(
                SPACE, USER, proposed.getMemoryId(), ReflectionDecisionType.APPROVE, "yes", List.of(), List.of()));
        assertThat(approved.getAccepted()).as(approved.getMessage()).isTrue();
        Reflection decided = h.views.reflection(SPACE, proposed.getMemoryId()).orElseThrow();
        assertThat(h.views.memory(SPACE, stale).orElseThrow().getState()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(h.views
                        .memory(SPACE, decided.getMemoryIds().get(1))
                        .orElseThrow()
                        .getKind())
                .isEqualTo(MemoryKind.PROCEDURAL);

        write(MemoryKind.EPISODIC, "t1", "Ana asked for the release notes");
        h.submit(Requests.requestReflection(SPACE, USER, null));
        ReflectRun eleventh = feed(worker).get(0);
        assertThat(eleventh.number()).isEqualTo(11);
        int calls = server.received().size();
        scriptPhases(stale, stale);
        MemoryRequest next = worker.execute(eleventh).get(0);
        ReflectionDocument ordinary = ((ProposeReflection) next.getOp()).getReflection();
        assertThat(server.received()).as("the five phases, no milestone prompt").hasSize(calls + 5);
        assertThat(ordinary.getMilestone()).isNull();
        assertThat(ordinary.getSummary()).doesNotContain("milestone");
        assertThat(h.submit(next).getAccepted()).isTrue();
        assertThat(metrics.milestones()).isEqualTo(1);
    }
}
