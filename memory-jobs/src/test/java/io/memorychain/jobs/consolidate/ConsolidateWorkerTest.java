package io.memorychain.jobs.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPinned;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.DataKey;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.TokenBudget;
import io.memorychain.llm.UsageCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job reads events and embeddings as two topics, whose records a live run and a replay see interleaved differently:
 * a due run plans on the vectors of its candidates whichever order they come in.
 */
class ConsolidateWorkerTest {

    private static final String MODEL = "model-a";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant NEXT_DAY = T0.plus(Duration.ofDays(1)).plusSeconds(1);
    private static final InMemorySchemaRegistry REGISTRY = new InMemorySchemaRegistry();
    private static final AvroWireSerde<MemoryEvent> EVENTS = AvroWireSerde.forValues(REGISTRY, MemoryEvent.class);
    private static final AvroWireSerde<MemoryEmbedding> VECTORS =
            AvroWireSerde.forValues(REGISTRY, MemoryEmbedding.class);
    private static final AvroWireSerde<MemoryAccess> READS = AvroWireSerde.forValues(REGISTRY, MemoryAccess.class);

    private final ConsolidateSettings settings = ConsolidateSettings.defaults();
    private final ConsolidateMetrics metrics = new ConsolidateMetrics();
    private final List<ConsolidateWorker> workers = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void closeWorkers() {
        workers.forEach(ConsolidateWorker::close);
    }

    @Test
    void aRunWaitsForTheVectorsOfItsCandidatesAndPlansTheSameInEitherOrder() {
        List<ConsumerRecord<byte[], byte[]>> live = List.of(
                created(1, "m1", "Alice is allergic to peanuts.", T0), vector(1, "m1", MODEL, 1f, 0f),
                created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)), vector(2, "m2", MODEL, 1f, 0f),
                created(3, "m3", "Bob plays the cello.", NEXT_DAY), vector(3, "m3", MODEL, 0f, 1f));
        List<ConsumerRecord<byte[], byte[]>> replay =
                List.of(live.get(0), live.get(2), live.get(4), live.get(1), live.get(3), live.get(5));

        List<ConsolidatePlanner.Plan> livePlans = feed(live);
        List<ConsolidatePlanner.Plan> replayPlans = feed(replay);

        assertThat(livePlans).hasSize(2);
        assertThat(livePlans.get(1).nearExact())
                .singleElement()
                .satisfies(p -> assertThat(List.of(p.a().id(), p.b().id())).containsExactly("m1", "m2"));
        assertThat(describe(replayPlans)).isEqualTo(describe(livePlans));
    }

    @Test
    void theMemoriesAndVectorsTheJobHoldsAreCounted() {
        ConsolidateWorker worker = worker();
        worker.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0));
        worker.onRecord(created(2, "m2", "Bob plays the cello.", T0.plusSeconds(1)));
        worker.onRecord(vector(1, "m1", MODEL, 1f, 0f));
        worker.onRecord(vector(1, "m1", MODEL, 1f, 0f)); // the same vector read again replaces it
        worker.onRecord(vector(2, "m2", "another-model", 0f, 1f)); // not this job's model: not kept
        assertThat(metrics.memoriesHeld()).isEqualTo(2);
        assertThat(metrics.vectorsHeld()).isEqualTo(1);

        worker.reset();
        assertThat(metrics.memoriesHeld()).isZero();
        assertThat(metrics.vectorsHeld()).isZero();
    }

    @Test
    void eventsReadWhileARunWaitsAreCountedUntilTheRunIsPlannedThenApplied() {
        ConsolidateWorker worker = worker();
        worker.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0));
        worker.onRecord(vector(1, "m1", MODEL, 1f, 0f));
        worker.onRecord(created(2, "m2", "Bob plays the cello.", NEXT_DAY)); // a run waits for m2's vector
        worker.onRecord(created(3, "m3", "Carol sings.", NEXT_DAY.plusSeconds(1)));
        worker.onRecord(pinned(4, "m3", NEXT_DAY.plusSeconds(2)));
        assertThat(metrics.eventsWaiting()).isEqualTo(2);
        assertThat(metrics.memoriesHeld()).as("m3 waits with its event").isEqualTo(2);

        assertThat(worker.onRecord(vector(2, "m2", MODEL, 0f, 1f))).isPresent();
        assertThat(metrics.eventsWaiting()).isZero();
        assertThat(metrics.memoriesHeld()).as("the held events were applied").isEqualTo(3);

        Instant dayAfter = NEXT_DAY.plus(Duration.ofDays(1)).plusSeconds(1);
        worker.onRecord(created(5, "m5", "Dan runs.", dayAfter)); // the next run waits for m5's vector
        worker.onRecord(created(6, "m6", "Eve reads.", dayAfter.plusSeconds(1)));
        assertThat(metrics.eventsWaiting()).isEqualTo(1);
        worker.reset();
        assertThat(metrics.eventsWaiting()).isZero();
    }

    @Test
    void readsFromTheAccessTopicPutAnOldUnimportantMemoryInTheNextRunsPool() {
        Instant later = T0.plus(Duration.ofDays(4)); // m1 and m2 are then outside the 72 h window
        List<ConsumerRecord<byte[], byte[]>> chain = List.of(
                created(1, "m0", "Dan runs.", T0, 1),
                vector(1, "m0", MODEL, 0f, 1f), // the first run
                created(2, "m1", "Alice is allergic to peanuts.", T0.plusSeconds(60), 1),
                vector(2, "m1", MODEL, 1f, 0f),
                created(3, "m2", "alice is allergic to peanuts", T0.plusSeconds(120), 1),
                vector(3, "m2", MODEL, 1f, 0f));
        List<ConsumerRecord<byte[], byte[]>> nextRun =
                List.of(created(4, "m3", "Bob plays the cello.", later, 1), vector(4, "m3", MODEL, -1f, 0f));

        ConsolidateWorker read = worker();
        plansOf(read, chain);
        read.onRecord(access(0, T0.plus(Duration.ofDays(1)), "m1", "m0"));
        read.onRecord(access(1, T0.plus(Duration.ofDays(2)), "m1"));
        List<ConsolidatePlanner.Plan> plans = plansOf(read, nextRun);
        assertThat(plans).singleElement().satisfies(p -> {
            assertThat(p.pool())
                    .as("m3 (recent) and m1 (read twice: the top decile of 4)")
                    .isEqualTo(2);
            assertThat(p.nearExact())
                    .extracting(x -> x.a().id() + "+" + x.b().id())
                    .containsExactly("m1+m2");
        });

        ConsolidateWorker unread = worker();
        plansOf(unread, chain);
        assertThat(plansOf(unread, nextRun)).singleElement().satisfies(p -> {
            assertThat(p.pool()).as("m3 only").isEqualTo(1);
            assertThat(p.nearExact()).isEmpty();
        });
    }

    @Test
    void noPlanBeforeTheVectorsThenOneWhenTheLastArrives() {
        ConsolidateWorker worker = worker();
        assertThat(worker.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0)))
                .isEmpty();
        assertThat(worker.onRecord(created(2, "m2", "Bob plays the cello.", T0.plusSeconds(1))))
                .as("not a day after the open run: no second run")
                .isEmpty();
        assertThat(worker.onRecord(vector(1, "m1", MODEL, 1f, 0f)))
                .as("the run at m1's event waited only for m1")
                .hasValueSatisfying(plans -> assertThat(plans).singleElement().satisfies(p -> {
                    assertThat(p.at()).isEqualTo(T0);
                    assertThat(p.pool()).isEqualTo(1);
                }));
    }

    @Test
    void aVectorTheEmbedderNeverWritesIsGivenUpOnceTheEmbedderIsPastTheRun() {
        ConsolidateWorker worker = worker();
        worker.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0));
        worker.onRecord(vector(1, "m1", MODEL, 1f, 0f));
        worker.onRecord(created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)));
        assertThat(worker.onRecord(created(3, "m3", "Bob plays the cello.", NEXT_DAY)))
                .isEmpty();
        assertThat(worker.onRecord(vector(2, "m2", "model-b", 1f, 0f)))
                .as("another model's vector")
                .isEmpty();
        assertThat(worker.onRecord(vector(3, "m3", "model-b", 0f, 1f)))
                .as("another model's vector")
                .isEmpty();
        assertThat(worker.onRecord(vector(3, "m3", MODEL, 0f, 1f)))
                .as("m3 arrived, m2 never will")
                .hasValueSatisfying(plans -> assertThat(plans).singleElement().satisfies(p -> {
                    assertThat(p.at()).isEqualTo(NEXT_DAY);
                    assertThat(p.pool()).as("m1 and m3: m2 has no vector").isEqualTo(2);
                }));
    }

    @Test
    void aRunPlansOnTheMemoriesOfItsTimeWhenLaterEventsArriveBeforeItsVectors() {
        ConsolidatePlanner.Plan waited = plansOf(
                        worker(),
                        List.of(
                                created(1, "m1", "Alice is allergic to peanuts.", T0),
                                vector(1, "m1", MODEL, 1f, 0f),
                                created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)),
                                created(3, "m3", "Bob plays the cello.", NEXT_DAY),
                                pinned(
                                        4,
                                        "m2",
                                        NEXT_DAY.plusSeconds(
                                                1)), // read while the run at m3's event waits for m2 and m3
                                vector(2, "m2", MODEL, 1f, 0f),
                                vector(3, "m3", MODEL, 0f, 1f)))
                .get(1);
        assertThat(waited.nearExact())
                .as("m2 was not pinned yet at the run's time")
                .singleElement()
                .satisfies(p -> assertThat(List.of(p.a().id(), p.b().id())).containsExactly("m1", "m2"));

        List<ConsolidatePlanner.Plan> next = plansOf(
                worker(),
                List.of(
                        created(1, "m1", "Alice is allergic to peanuts.", T0),
                        vector(1, "m1", MODEL, 1f, 0f),
                        created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)),
                        vector(2, "m2", MODEL, 1f, 0f),
                        pinned(3, "m2", T0.plusSeconds(120)),
                        created(4, "m3", "Bob plays the cello.", NEXT_DAY),
                        vector(4, "m3", MODEL, 0f, 1f)));
        assertThat(next.get(1).nearExact())
                .as("pinned before the run: not merged")
                .isEmpty();
    }

    @Test
    void aRunComparesTheDecryptedTexts() {
        byte[] key = new byte[32];
        Map<String, DataKey> keys =
                Map.of("m1", new DataKey("k1", 1, key, null), "m2", new DataKey("k2", 2, key, null));
        ChainContent content = ChainContent.decrypting((space, id) -> keys.get(id));
        List<ConsolidatePlanner.Plan> plans = plansOf(
                worker(content),
                List.of(
                        encrypted(created(1, "m1", "Alice is allergic to peanuts.", T0), key),
                        vector(1, "m1", MODEL, 1f, 0f),
                        encrypted(created(2, "m2", "alice is allergic to peanuts!", T0.plusSeconds(60)), key),
                        vector(2, "m2", MODEL, 0f, 1f),
                        created(3, "m3", "Bob plays the cello.", NEXT_DAY),
                        vector(3, "m3", MODEL, 0.6f, 0.8f)));
        assertThat(plans.get(1).nearExact())
                .as("orthogonal vectors: only the decrypted texts are the same")
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.a().content()).isEqualTo("Alice is allergic to peanuts.");
                    assertThat(p.b().content()).isEqualTo("alice is allergic to peanuts!");
                });
    }

    @Test
    void aRedoneRunIsExecutedIfAnyRecordItDependsOnWasNotCommitted() {
        // the crash of the IT: the vectors were committed long before, the run's event was not
        ConsolidateWorker worker = worker();
        worker.onRecord(vector(1, "m1", MODEL, 1f, 0f), false);
        worker.onRecord(vector(2, "m2", MODEL, 1f, 0f), false);
        worker.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0), false);
        worker.onRecord(created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)), false);
        assertThat(worker.onRecord(created(3, "m3", "Bob plays the cello.", NEXT_DAY), true))
                .isEmpty();
        assertThat(worker.onRecord(vector(3, "m3", MODEL, 0f, 1f), false))
                .as("completed by a committed vector, but its event was not committed")
                .hasValueSatisfying(plans -> assertThat(plans)
                        .singleElement()
                        .satisfies(p -> assertThat(p.nearExact()).hasSize(1)));

        // everything committed: state only, whatever the order
        ConsolidateWorker replay = worker();
        replay.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0), false);
        replay.onRecord(created(2, "m2", "alice is allergic to peanuts", T0.plusSeconds(60)), false);
        replay.onRecord(created(3, "m3", "Bob plays the cello.", NEXT_DAY), false);
        assertThat(replay.onRecord(vector(1, "m1", MODEL, 1f, 0f), false)).isEmpty();
        assertThat(replay.onRecord(vector(2, "m2", MODEL, 1f, 0f), false)).isEmpty();
        assertThat(replay.onRecord(vector(3, "m3", MODEL, 0f, 1f), false)).isEmpty();

        // committed event, a vector it awaited was not
        ConsolidateWorker awaited = worker();
        awaited.onRecord(created(1, "m1", "Alice is allergic to peanuts.", T0), false);
        assertThat(awaited.onRecord(vector(1, "m1", MODEL, 1f, 0f), true)).isPresent();
    }

    private List<ConsolidatePlanner.Plan> feed(List<ConsumerRecord<byte[], byte[]>> records) {
        ConsolidateWorker worker = worker();
        List<ConsolidatePlanner.Plan> plans = new ArrayList<>();
        records.forEach(r -> worker.onRecord(r).ifPresent(plans::addAll));
        return plans;
    }

    private static List<ConsolidatePlanner.Plan> plansOf(
            ConsolidateWorker worker, List<ConsumerRecord<byte[], byte[]>> records) {
        List<ConsolidatePlanner.Plan> plans = new ArrayList<>();
        records.forEach(r -> worker.onRecord(r).ifPresent(plans::addAll));
        return plans;
    }

    private static ConsumerRecord<byte[], byte[]> pinned(long seq, String id, Instant at) {
        return record(seq, at, new MemoryPinned(id));
    }

    /** The record with its memory's texts encrypted as the sequencer writes them. */
    private static ConsumerRecord<byte[], byte[]> encrypted(ConsumerRecord<byte[], byte[]> record, byte[] key) {
        MemoryEvent event = EVENTS.deserialize("events", record.value());
        ChainContent.encrypt(((MemoryCreated) event.getPayload()).getMemory(), key);
        return new ConsumerRecord<>("events", 0, record.offset(), null, EVENTS.serialize("events", event));
    }

    private static List<String> describe(List<ConsolidatePlanner.Plan> plans) {
        return plans.stream()
                .map(p -> p.at() + " pool=" + p.pool() + " near="
                        + p.nearExact().stream()
                                .map(ConsolidatePlanner.Pair::fingerprint)
                                .toList() + " check=" + p.toCheck().size())
                .toList();
    }

    private ConsolidateWorker worker() {
        return worker(ChainContent.PLAINTEXT);
    }

    private ConsolidateWorker worker(ChainContent content) {
        LlmRuntime runtime =
                new LlmRuntime(new TokenBudget(Clock.systemUTC()), new UsageCounters(), d -> {}, () -> 0.5);
        Consolidations none =
                new Consolidations(new ChatModels(LlmSettings.fromProperties(Map.of()), runtime), settings, metrics);
        try {
            ConsolidateWorker worker = new ConsolidateWorker(
                    REGISTRY,
                    settings,
                    none,
                    metrics,
                    MODEL,
                    "events",
                    "vectors",
                    "reads",
                    content,
                    Files.createTempDirectory(dir, "state"));
            workers.add(worker);
            return worker;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ConsumerRecord<byte[], byte[]> access(long offset, Instant at, String... ids) {
        MemoryAccess a = new MemoryAccess("s", new Actor(ActorType.AGENT, "a"), List.of(ids), at);
        return new ConsumerRecord<>("reads", 0, offset, null, READS.serialize("reads", a));
    }

    private static ConsumerRecord<byte[], byte[]> created(long seq, String id, String content, Instant at) {
        return created(seq, id, content, at, 3);
    }

    private static ConsumerRecord<byte[], byte[]> created(
            long seq, String id, String content, Instant at, int importance) {
        Memory m = Memory.newBuilder()
                .setId(id)
                .setSpace("s")
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(null)
                .setContent(content)
                .setSummary(null)
                .setTags(List.of())
                .setImportance(importance)
                .setConfidence(Confidence.MEDIUM)
                .setSource(null)
                .setUserId(null)
                .setAgentId(null)
                .setRunId(null)
                .setActorId(null)
                .setThreadId(null)
                .setRole(null)
                .setCreatedAt(at)
                .setUpdatedAt(at)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash("h-" + id)
                .build();
        return record(seq, at, new MemoryCreated(m));
    }

    private static ConsumerRecord<byte[], byte[]> record(long seq, Instant at, Object payload) {
        MemoryEvent event = MemoryEvent.newBuilder()
                .setSpace("s")
                .setSeq(seq)
                .setPrevHash(ByteBuffer.allocate(0))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("k")
                .setRequestId("r" + seq)
                .setActor(new Actor(ActorType.AGENT, "a"))
                .setOccurredAt(at)
                .setSessionId(null)
                .setPayload(payload)
                .build();
        return new ConsumerRecord<>("events", 0, seq, null, EVENTS.serialize("events", event));
    }

    private static ConsumerRecord<byte[], byte[]> vector(long seq, String id, String model, float x, float y) {
        MemoryEmbedding e = new MemoryEmbedding("s", id, seq, "h-" + id, model, List.of(x, y));
        return new ConsumerRecord<>("vectors", 0, seq, null, VECTORS.serialize("vectors", e));
    }
}
