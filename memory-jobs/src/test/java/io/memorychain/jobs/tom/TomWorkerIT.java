package io.memorychain.jobs.tom;

import static io.memorychain.jobs.JobRecords.awaitCaughtUp;
import static io.memorychain.jobs.JobRecords.deadLetterOffsets;
import static io.memorychain.jobs.JobRecords.junk;
import static io.memorychain.jobs.JobRecords.readAll;
import static io.memorychain.jobs.JobRecords.requestIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
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
import io.memorychain.events.serde.AvroWireSerde;
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
import java.nio.charset.StandardCharsets;
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
 * The ToM job on a real broker next to the real sequencer and projection, with a scripted model server: it publishes
 * the insight requests of two threads once, even though its first instance crashes after sending them and before its
 * transaction commits; a clean restart publishes nothing more; a replay of the whole chain by a fresh group publishes
 * the same request ids, which the sequencer deduplicates; a fresh group starting at the latest offsets runs only for
 * new items; an undecodable event reaches the dead-letter topic once; and the chains verify.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@SuppressWarnings("try") // a Running worker is not referenced in its try block: it runs while the test waits
class TomWorkerIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");
    private static final String ANSWER = """
            {"insights":[
              {"summary":"User becomes terse when a problem repeats.","tags":["frustration"],"importance":2},
              {"summary":"I sense the user is annoyed.","tags":[],"importance":2},
              {"summary":"User trusts concrete follow-ups more than apologies.","tags":["trust"],"importance":2}]}""";

    @TempDir
    Path dir;

    @Test
    void publishesInsightsOnceAcrossACrashMidBatchARestartAndAReplayAndTheChainsVerify() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        String spaceA = "tenant.alice";
        String spaceB = "tenant.bob";
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
            for (int i = 0; i < 12; i++) {
                llm.replyContent(ANSWER, 300, 60);
            }
            ChatModels models = new ChatModels(
                    LlmSettings.fromProperties(
                            Map.of("memory.llm.base-url", llm.baseUrl(), "memory.llm.model", "tom-model")),
                    LlmRuntime.standard(new UsageCounters()));
            TomSettings settings = new TomSettings(3, Duration.ofHours(24), 220);

            episodic(publisher, spaceA, "t1", "The user reported the export bug again, in one line.");
            episodic(publisher, spaceA, "t1", "The user asked for a date for the fix.");
            episodic(publisher, spaceA, "t1", "The user thanked the agent for the concrete plan.");
            episodic(publisher, spaceB, null, "The user asked for the invoice.");
            episodic(publisher, spaceB, null, "The user asked for the invoice a second time.");
            episodic(publisher, spaceB, null, "The user said the invoice finally arrived.");
            long junkOffset = junk(topics);
            Set<String> expectedIds = Set.of(
                    "tom:" + spaceA + ":t1:1-3:0",
                    "tom:" + spaceA + ":t1:1-3:1",
                    "tom:" + spaceB + ":-:1-3:0",
                    "tom:" + spaceB + ":-:1-3:1");

            // 1. the first instance crashes after sending a batch's requests, before its transaction commits
            String group = prefix + "tom";
            AtomicInteger crashes = new AtomicInteger();
            ChainJob.BeforeCommit crash = JobRecords.crashOnce(crashes);
            TomMetrics crashedMetrics = new TomMetrics();
            try (ChainJob<TomRun> first = worker(
                    topics,
                    registry,
                    group,
                    "a",
                    ChainJob.StartFrom.EARLIEST,
                    settings,
                    models,
                    crashedMetrics,
                    crash)) {
                CompletableFuture<Void> running = CompletableFuture.runAsync(first::run);
                await().atMost(Duration.ofSeconds(60)).until(running::isDone);
                assertThat(running).isCompletedExceptionally();
                assertThat(crashes.get()).isEqualTo(1);
            }
            List<String> uncommitted = requestIds(topics, registry, "read_uncommitted", TomWorker.NAME);
            assertThat(uncommitted)
                    .as("the crashed batch's requests were sent (then aborted)")
                    .isNotEmpty()
                    .isSubsetOf(expectedIds);
            assertThat(requestIds(topics, registry, "read_committed", TomWorker.NAME))
                    .isEmpty();

            // 2. restarted (same group and instance): redoes the batch and commits
            TomMetrics metrics = new TomMetrics();
            try (Running second = new Running(worker(
                    topics,
                    registry,
                    group,
                    "a",
                    ChainJob.StartFrom.EARLIEST,
                    settings,
                    models,
                    metrics,
                    ChainJob.BeforeCommit.NONE))) {
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> insights(runtime, spaceA).size() == 2
                                && insights(runtime, spaceB).size() == 2);
                awaitCaughtUp(topics, group);
            }
            assertThat(metrics.undecodable()).isEqualTo(1);
            assertThat(deadLetterOffsets(topics, TomWorker.NAME))
                    .as("the undecodable record, once, with its coordinates")
                    .containsExactly(String.valueOf(junkOffset));
            List<String> committed = requestIds(topics, registry, "read_committed", TomWorker.NAME);
            assertThat(committed).containsExactlyInAnyOrderElementsOf(expectedIds);
            assertThat(metrics.published()).isEqualTo(4);
            assertThat(metrics.dropped())
                    .as("the first-person insight of each run")
                    .isEqualTo(2);
            Memory insight = insights(runtime, spaceA).get(0);
            assertThat(insight.getCategory()).isEqualTo("relationship_dynamic");
            assertThat(insight.getImportance()).isEqualTo(2);
            assertThat(insight.getThreadId()).isEqualTo("t1");
            assertThat(insight.getContent()).isEqualTo("User becomes terse when a problem repeats.");

            // 3. a clean restart publishes nothing more, and new items within 24 h of chain time wait for the cooldown
            int calls = llm.received().size();
            TomMetrics restartMetrics = new TomMetrics();
            try (Running third = new Running(worker(
                    topics,
                    registry,
                    group,
                    "a",
                    ChainJob.StartFrom.EARLIEST,
                    settings,
                    models,
                    restartMetrics,
                    ChainJob.BeforeCommit.NONE))) {
                episodic(publisher, spaceA, "t1", "The user asked about the next release.");
                episodic(publisher, spaceA, "t1", "The user shared the release notes with the team.");
                episodic(publisher, spaceA, "t1", "The user said the notes were clear.");
                awaitCaughtUp(topics, group);
            }
            assertThat(restartMetrics.runs()).isZero();
            assertThat(llm.received()).hasSize(calls);
            assertThat(requestIds(topics, registry, "read_committed", TomWorker.NAME))
                    .containsExactlyInAnyOrderElementsOf(expectedIds);

            // 4. a replay of the whole stream by a fresh group publishes the same ids; the sequencer deduplicates them
            String replayGroup = prefix + "tom-replay";
            try (Running replay = new Running(worker(
                    topics,
                    registry,
                    replayGroup,
                    "r",
                    ChainJob.StartFrom.EARLIEST,
                    settings,
                    models,
                    new TomMetrics(),
                    ChainJob.BeforeCommit.NONE))) {
                awaitCaughtUp(topics, replayGroup);
            }
            List<String> afterReplay = requestIds(topics, registry, "read_committed", TomWorker.NAME);
            assertThat(afterReplay).hasSize(8);
            assertThat(Set.copyOf(afterReplay)).isEqualTo(expectedIds);
            await().atMost(Duration.ofSeconds(30)).until(() -> runtime.views().appliedSeq(spaceA) >= 8);
            assertThat(insights(runtime, spaceA)).hasSize(2);
            assertThat(insights(runtime, spaceB)).hasSize(2);
            assertThat(insightEvents(topics, registry))
                    .as("insight events on the chains")
                    .isEqualTo(4);

            // 5. a new group starting at the latest offsets runs nothing for the history, only for what comes next
            TomMetrics latestMetrics = new TomMetrics();
            String latestGroup = prefix + "tom-latest";
            try (Running latest = new Running(worker(
                    topics,
                    registry,
                    latestGroup,
                    "l",
                    ChainJob.StartFrom.LATEST,
                    settings,
                    models,
                    latestMetrics,
                    ChainJob.BeforeCommit.NONE))) {
                await().atMost(Duration.ofSeconds(60)).until(() -> latestMetrics.partitions() == 2);
                episodic(publisher, spaceB, "t2", "The user asked to move the meeting.");
                episodic(publisher, spaceB, "t2", "The user moved the meeting again.");
                episodic(publisher, spaceB, "t2", "The user apologised for the changes.");
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> insights(runtime, spaceB).size() == 4);
                awaitCaughtUp(topics, latestGroup);
            }
            assertThat(latestMetrics.runs()).isEqualTo(1);
            assertThat(requestIds(topics, registry, "read_committed", TomWorker.NAME))
                    .hasSize(10)
                    .contains("tom:" + spaceB + ":t2:6-8:0", "tom:" + spaceB + ":t2:6-8:1");

            for (String space : List.of(spaceA, spaceB)) {
                VerificationResult result = new KafkaChainReader(
                                SharedKafka.clientProps(),
                                topics.events(),
                                registry,
                                keys.publicRing(),
                                SignatureMode.ALL)
                        .verifySpace(space);
                assertThat(result.ok()).as(space + ": " + result.message()).isTrue();
            }
            assertThat(runtime.views().appliedSeq(spaceA)).isEqualTo(8);
            assertThat(runtime.views().appliedSeq(spaceB)).isEqualTo(10);
        }
    }

    private static ChainJob<TomRun> worker(
            Topics topics,
            SchemaRegistry registry,
            String group,
            String instance,
            ChainJob.StartFrom startFrom,
            TomSettings settings,
            ChatModels models,
            TomMetrics metrics,
            ChainJob.BeforeCommit hook) {
        return TomWorker.job(
                TomWorker.options(
                        SharedKafka.bootstrapServers(), topics, group, instance, startFrom, 4, Duration.ofMillis(200)),
                registry,
                settings,
                new TomInsights(models, settings, metrics),
                metrics,
                hook);
    }

    private static void episodic(MemoryPublisher publisher, String space, String thread, String content)
            throws Exception {
        MemoryOutcome o = publisher
                .publish(Requests.create(
                                space,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setContent(content)
                                        .setKind(MemoryKind.EPISODIC)
                                        .setThreadId(thread)
                                        .build())
                        .build())
                .get(60, TimeUnit.SECONDS);
        assertThat(o.getAccepted()).as("%s", o).isTrue();
    }

    private static List<Memory> insights(MemoryChainRuntime runtime, String space) {
        return runtime.views()
                .list(space, new ListQuery(MemoryKind.INSIGHT, null, null, null, 100))
                .items();
    }

    private static long insightEvents(Topics topics, SchemaRegistry registry) {
        AvroWireSerde<io.memorychain.avro.MemoryEvent> serde =
                AvroWireSerde.forValues(registry, io.memorychain.avro.MemoryEvent.class);
        return readAll(topics.events(), "read_committed").stream()
                .filter(r -> !JobRecords.JUNK_SPACE.equals(new String(r.key(), StandardCharsets.UTF_8)))
                .map(r -> serde.deserialize(topics.events(), r.value()))
                .filter(e -> e.getActor().getType() == ActorType.WORKER
                        && e.getActor().getId().equals("tom"))
                .filter(e -> e.getPayload() instanceof io.memorychain.avro.MemoryCreated c
                        && c.getMemory().getKind() == MemoryKind.INSIGHT)
                .count();
    }
}
