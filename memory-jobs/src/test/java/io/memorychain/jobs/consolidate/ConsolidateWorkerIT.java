package io.memorychain.jobs.consolidate;

import static io.memorychain.jobs.JobRecords.deadLetterStages;
import static io.memorychain.jobs.JobRecords.junk;
import static io.memorychain.jobs.JobRecords.readAll;
import static io.memorychain.jobs.JobRecords.requestIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.JobRecords;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.ScriptedChatServer;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.view.ListQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consolidation job on a real broker next to the real sequencer, embedder and projection, with a scripted model: a
 * near-exact copy is merged without the model, a paraphrase after the model's same-fact answer, a distinct fact is left
 * alone; a first instance that crashes after sending its requests and before committing them is redone by its restart
 * with the same request ids, once; a later restart of the group publishes no second request; the chain verifies.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ConsolidateWorkerIT {

    @TempDir
    Path dir;

    @Test
    void mergesACopyAndAParaphraseOnceAcrossARestartAndTheChainVerifies() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        String space = "tenant.carol";
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
                        SharedEmbedder.get(),
                        Duration.ofSeconds(90));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            for (int i = 0; i < 10; i++) {
                llm.replyContent(
                        "{\"pairs\":[{\"id\":\"p1\",\"same_fact\":true,"
                                + "\"merged\":\"The user has a dog named Rex.\"}]}",
                        200,
                        30);
            }
            ChatModels models = new ChatModels(
                    LlmSettings.fromProperties(
                            Map.of("memory.llm.base-url", llm.baseUrl(), "memory.llm.model", "judge")),
                    LlmRuntime.standard(new UsageCounters()));
            ConsolidateSettings settings = ConsolidateSettings.defaults().withInterval(Duration.ofSeconds(1));

            semantic(publisher, space, "Alice is allergic to peanuts.");
            semantic(publisher, space, "alice is allergic to peanuts");
            semantic(publisher, space, "The user has a dog named Rex.");
            semantic(publisher, space, "The user owns a dog called Rex.");
            semantic(publisher, space, "Project Hermes uses MySQL.");
            awaitEmbeddings(topics, 5);

            junk(topics);
            String group = prefix + "consolidate";
            // 1. the first instance crashes after sending the run's requests, before its transaction commits
            AtomicInteger crashes = new AtomicInteger();
            try (ChainJob<List<ConsolidatePlanner.Plan>> first = worker(
                    topics,
                    registry,
                    group,
                    settings,
                    models,
                    new ConsolidateMetrics(),
                    JobRecords.crashOnce(crashes))) {
                CompletableFuture<Void> loop = CompletableFuture.runAsync(first::run);
                // one interval of chain time after the memories, so that the next event makes a run with all of them
                Instant due = Instant.now().plus(settings.interval());
                await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(due));
                semantic(publisher, space, "Project Hermes is due in May.");
                await().atMost(Duration.ofSeconds(60)).until(loop::isDone);
                assertThat(loop).isCompletedExceptionally();
            }
            assertThat(crashes.get()).isEqualTo(1);
            List<String> aborted = requestIds(topics, registry, "read_uncommitted", ConsolidateWorker.NAME);
            assertThat(aborted)
                    .as("the crashed batch's requests were sent (then aborted)")
                    .isNotEmpty();
            assertThat(requestIds(topics, registry, "read_committed", ConsolidateWorker.NAME))
                    .isEmpty();

            // 2. restarted (same group): redoes the run and commits the same request ids
            ConsolidateMetrics metrics = new ConsolidateMetrics();
            try (ChainJob<List<ConsolidatePlanner.Plan>> worker =
                    worker(topics, registry, group, settings, models, metrics, ChainJob.BeforeCommit.NONE)) {
                CompletableFuture<Void> loop = CompletableFuture.runAsync(worker::run);
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> active(runtime, space).size() == 4);
                worker.stop();
                loop.get(30, TimeUnit.SECONDS);
            }
            List<String> ids = requestIds(topics, registry, "read_committed", ConsolidateWorker.NAME);
            assertThat(ids)
                    .hasSize(2)
                    .doesNotHaveDuplicates()
                    .allMatch(id -> id.startsWith("consolidate:" + space))
                    .as("the restart redid the crashed batch with the same ids")
                    .containsAll(aborted);
            assertThat(active(runtime, space))
                    .extracting(Memory::getContent)
                    .contains(
                            "The user has a dog named Rex.",
                            "Project Hermes uses MySQL.",
                            "Project Hermes is due in May.");
            assertThat(active(runtime, space))
                    .filteredOn(m ->
                            m.getContent().toLowerCase(java.util.Locale.ROOT).contains("peanuts"))
                    .singleElement()
                    .satisfies(m -> assertThat(m.getSupersedes()).hasSize(2));
            assertThat(metrics.nearExact()).isEqualTo(1);
            assertThat(metrics.sameFact()).isEqualTo(1);
            assertThat(deadLetterStages(topics))
                    .as("the undecodable record, once, by this job")
                    .containsOnlyOnce("consolidate");

            // a restart of the same group: it reads everything again (state), but has nothing new to publish
            int records = readAll(topics.events(), "read_committed").size()
                    + readAll(topics.embeddings(), "read_committed").size();
            ConsolidateMetrics restarted = new ConsolidateMetrics();
            try (ChainJob<List<ConsolidatePlanner.Plan>> again =
                    worker(topics, registry, group, settings, models, restarted, ChainJob.BeforeCommit.NONE)) {
                CompletableFuture<Void> loop = CompletableFuture.runAsync(again::run);
                await().atMost(Duration.ofSeconds(60)).until(() -> restarted.recordsRead() >= records);
                again.stop();
                loop.get(30, TimeUnit.SECONDS);
            }
            assertThat(requestIds(topics, registry, "read_committed", ConsolidateWorker.NAME))
                    .hasSize(2);
            assertThat(deadLetterStages(topics)).containsOnlyOnce("consolidate");

            VerificationResult result = new KafkaChainReader(
                            SharedKafka.clientProps(), topics.events(), registry, keys.publicRing(), SignatureMode.ALL)
                    .verifySpace(space);
            assertThat(result.ok()).as(result.message()).isTrue();
        }
    }

    private ChainJob<List<ConsolidatePlanner.Plan>> worker(
            Topics topics,
            SchemaRegistry registry,
            String group,
            ConsolidateSettings settings,
            ChatModels models,
            ConsolidateMetrics metrics,
            ChainJob.BeforeCommit hook)
            throws IOException {
        return ConsolidateWorker.job(
                ConsolidateWorker.options(
                        SharedKafka.bootstrapServers(),
                        topics,
                        group,
                        "0",
                        ChainJob.StartFrom.EARLIEST,
                        Duration.ofMillis(200)),
                registry,
                settings,
                new Consolidations(models, settings, metrics),
                metrics,
                SharedEmbedder.get().modelId(),
                ChainContent.PLAINTEXT,
                Files.createTempDirectory(dir, group),
                hook);
    }

    private static void semantic(MemoryPublisher publisher, String space, String content) throws Exception {
        MemoryOutcome o = publisher
                .publish(Requests.create(
                                space,
                                Requests.actor(ActorType.AGENT, "a"),
                                CreateMemory.newBuilder()
                                        .setContent(content)
                                        .setKind(MemoryKind.SEMANTIC)
                                        .build())
                        .build())
                .get(60, TimeUnit.SECONDS);
        assertThat(o.getAccepted()).as("%s", o).isTrue();
    }

    private static List<Memory> active(MemoryChainRuntime runtime, String space) {
        return runtime.views()
                .list(space, new ListQuery(MemoryKind.SEMANTIC, null, MemoryState.ACTIVE, null, 100))
                .items();
    }

    private static void awaitEmbeddings(Topics topics, int count) {
        await().atMost(Duration.ofSeconds(90))
                .until(() -> readAll(topics.embeddings(), "read_committed").size() >= count);
    }
}
