package io.memorychain.jobs.reflect;

import static io.memorychain.jobs.JobRecords.awaitCaughtUp;
import static io.memorychain.jobs.JobRecords.deadLetterOffsets;
import static io.memorychain.jobs.JobRecords.junk;
import static io.memorychain.jobs.JobRecords.requestIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.JobRecords;
import io.memorychain.jobs.JobRecords.Running;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.view.ListQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reflection job (docs/architecture.md §18) on a real broker next to the real sequencer and projection, with a
 * scripted model server: two manual requests become one pending reflection each, published once although the first
 * instance crashes after sending them and before its transaction commits; a clean restart calls no model and publishes
 * nothing; a replay by a fresh group publishes the same request ids, which the sequencer deduplicates; nothing is
 * applied until a user approves, then the approved change is; an undecodable event reaches the dead-letter topic once;
 * and the chains verify.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@SuppressWarnings("try") // a Running job is not referenced in its try block: it runs while the test waits
class ReflectWorkerIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "main");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final String NEW_FACT = "Ana moves launches after reviews";

    @TempDir
    Path dir;

    @Test
    void proposesReflectionsOnceAcrossACrashMidBatchARestartAndAReplayAppliesOnlyWhatAUserApproves() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        List<String> spaces = List.of("acme.ana", "acme.bo");
        try (ScriptedChatServer llm = new ScriptedChatServer();
                SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        new MemoryChainRuntime.Settings(
                                SharedKafka.bootstrapServers(),
                                topics,
                                dir.resolve("runtime"),
                                prefix + "app",
                                2,
                                (short) 1,
                                WriteSettings.defaults()),
                        registry,
                        keys,
                        null,
                        Duration.ofSeconds(90));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            for (int run = 0; run < 6; run++) { // 2 crashed, 2 redone, 2 replayed: five phases each
                scriptPhases(llm);
            }
            ChatModels models = new ChatModels(
                    LlmSettings.fromProperties(Map.of(
                            "memory.llm.base-url",
                            llm.baseUrl(),
                            "memory.llm.model",
                            "reflector",
                            "memory.llm.max-attempts",
                            "1")),
                    LlmRuntime.standard(new UsageCounters()));
            for (String space : spaces) {
                write(publisher, space, MemoryKind.EPISODIC, "Ana moved the launch to Friday after the review");
                write(publisher, space, MemoryKind.SEMANTIC, "Launch is on Thursday");
                accepted(publisher.publish(Requests.requestReflection(space, USER, "reflect on the launch")
                        .build()));
            }
            long junkOffset = junk(topics);
            Set<String> expectedIds = Set.of("reflect:acme.ana:3", "reflect:acme.bo:3");

            // 1. the first instance crashes after sending a batch's requests, before its transaction commits
            String group = prefix + "reflect";
            AtomicInteger crashes = new AtomicInteger();
            ChainJob.BeforeCommit crash = JobRecords.crashOnce(crashes);
            try (ChainJob<ReflectRun> first = job(topics, registry, group, "a", models, new ReflectMetrics(), crash)) {
                CompletableFuture<Void> running = CompletableFuture.runAsync(first::run);
                await().atMost(Duration.ofSeconds(60)).until(running::isDone);
                assertThat(running).isCompletedExceptionally();
            }
            assertThat(crashes.get()).isEqualTo(1);
            assertThat(requestIds(topics, registry, "read_uncommitted", ReflectWorker.NAME))
                    .as("the crashed batch's requests were sent (then aborted)")
                    .isNotEmpty()
                    .isSubsetOf(expectedIds);
            assertThat(requestIds(topics, registry, "read_committed", ReflectWorker.NAME))
                    .isEmpty();

            // 2. restarted (same group and instance): redoes the batch and commits; nothing is applied yet
            ReflectMetrics metrics = new ReflectMetrics();
            try (Running second =
                    new Running(job(topics, registry, group, "a", models, metrics, ChainJob.BeforeCommit.NONE))) {
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> spaces.stream()
                                .allMatch(s -> pending(runtime, s).size() == 1));
                awaitCaughtUp(topics, group);
            }
            assertThat(requestIds(topics, registry, "read_committed", ReflectWorker.NAME))
                    .containsExactlyInAnyOrderElementsOf(expectedIds);
            assertThat(metrics.proposed()).isEqualTo(2);
            assertThat(deadLetterOffsets(topics, ReflectWorker.NAME))
                    .as("the undecodable record, once")
                    .containsExactly(String.valueOf(junkOffset));
            for (String space : spaces) {
                assertThat(semantic(runtime, space))
                        .as("a pending reflection is never applied")
                        .extracting(Memory::getContent)
                        .containsExactly("Launch is on Thursday");
            }

            // 3. a clean restart calls no model and publishes nothing
            int calls = llm.received().size();
            ReflectMetrics restarted = new ReflectMetrics();
            try (Running third =
                    new Running(job(topics, registry, group, "a", models, restarted, ChainJob.BeforeCommit.NONE))) {
                awaitCaughtUp(topics, group);
            }
            assertThat(restarted.runs()).isZero();
            assertThat(llm.received()).hasSize(calls);

            // 4. a replay by a fresh group publishes the same ids; the sequencer deduplicates them
            String replayGroup = prefix + "reflect-replay";
            try (Running replay = new Running(job(
                    topics, registry, replayGroup, "r", models, new ReflectMetrics(), ChainJob.BeforeCommit.NONE))) {
                awaitCaughtUp(topics, replayGroup);
            }
            List<String> afterReplay = requestIds(topics, registry, "read_committed", ReflectWorker.NAME);
            assertThat(afterReplay).hasSize(4);
            assertThat(Set.copyOf(afterReplay)).isEqualTo(expectedIds);
            long head = runtime.views().appliedSeq(spaces.get(0));
            assertThat(head)
                    .as("episode, fact, request, proposal: the replayed proposal appended nothing")
                    .isEqualTo(4);

            // 5. a user approves one space's reflection: its change is applied; the other stays pending
            String ana = spaces.get(0);
            Reflection proposed = pending(runtime, ana).get(0);
            accepted(publisher.publish(Requests.decideReflection(
                            ana, USER, proposed.getId(), ReflectionDecisionType.APPROVE, "agreed", List.of(), List.of())
                    .build()));
            await().atMost(Duration.ofSeconds(30)).until(() -> runtime.views().appliedSeq(ana) > head);
            assertThat(runtime.views()
                            .reflection(ana, proposed.getId())
                            .orElseThrow()
                            .getStatus())
                    .isEqualTo(ReflectionStatus.APPROVED);
            assertThat(semantic(runtime, ana))
                    .extracting(Memory::getContent)
                    .containsExactlyInAnyOrder("Launch is on Thursday", NEW_FACT);
            assertThat(pending(runtime, spaces.get(1))).hasSize(1);

            for (String space : spaces) {
                VerificationResult result = new KafkaChainReader(
                                SharedKafka.clientProps(),
                                topics.events(),
                                registry,
                                keys.publicRing(),
                                SignatureMode.ALL)
                        .verifySpace(space);
                assertThat(result.ok()).as(space + ": " + result.message()).isTrue();
            }
        }
    }

    /** The five phases' answers of one run: one new memory proposed, no block edit. */
    private static void scriptPhases(ScriptedChatServer llm) {
        llm.replyContent("{\"priorities\":[\"the launch date\"]}", 400, 20);
        llm.replyContent("{\"guidance\":\"look for decisions\",\"evolution_insights\":[]}", 300, 20);
        llm.replyContent(
                "{\"changes\":[{\"type\":\"create_memory\",\"content\":\"" + NEW_FACT + "\","
                        + "\"importance\":4,\"reason\":\"the episode\"}],\"contradictions\":[]}",
                500,
                60);
        llm.replyContent("{\"block_edits\":[]}", 300, 10);
        llm.replyContent(
                "{\"summary\":\"# Reflection Summary\\n- launches move after reviews\",\"questions\":[]}", 300, 30);
    }

    private static ChainJob<ReflectRun> job(
            Topics topics,
            SchemaRegistry registry,
            String group,
            String instance,
            ChatModels models,
            ReflectMetrics metrics,
            ChainJob.BeforeCommit hook) {
        ReflectSettings settings = ReflectSettings.defaults();
        return ReflectWorker.job(
                ReflectWorker.options(
                        SharedKafka.bootstrapServers(),
                        topics,
                        group,
                        instance,
                        ChainJob.StartFrom.EARLIEST,
                        Duration.ofMillis(200)),
                registry,
                settings,
                new ReflectionEngine(models, settings, metrics),
                metrics,
                hook);
    }

    private static void write(MemoryPublisher publisher, String space, MemoryKind kind, String content)
            throws Exception {
        accepted(publisher.publish(Requests.create(
                        space,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(kind)
                                .setThreadId(kind == MemoryKind.EPISODIC ? "t1" : null)
                                .setContent(content)
                                .build())
                .build()));
    }

    private static void accepted(CompletableFuture<MemoryOutcome> outcome) throws Exception {
        MemoryOutcome o = outcome.get(60, TimeUnit.SECONDS);
        assertThat(o.getAccepted()).as("%s", o).isTrue();
    }

    private static List<Reflection> pending(MemoryChainRuntime runtime, String space) {
        return runtime.views().reflections(space).stream()
                .filter(r -> r.getStatus() == ReflectionStatus.PENDING)
                .toList();
    }

    private static List<Memory> semantic(MemoryChainRuntime runtime, String space) {
        return runtime.views()
                .list(space, new ListQuery(MemoryKind.SEMANTIC, null, null, null, 100))
                .items();
    }
}
