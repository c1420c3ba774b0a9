package io.memorychain.projector.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ops.OpsCounts.Bucket;
import io.memorychain.projector.ops.OpsCounts.Count;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ops app on TopologyTestDriver: ops derived from a real chain (ChainHarness), counted per hour and day. */
class OpsTopologyTest {

    private static final String SPACE = "opsy";

    private final ChainHarness h = new ChainHarness();
    private final List<TopologyTestDriver> drivers = new ArrayList<>();

    @AfterEach
    void close() {
        drivers.forEach(TopologyTestDriver::close);
        h.close();
    }

    /** One run of the ops app over the given events and API-recorded ops. */
    private final class Run {
        final TopologyTestDriver driver;
        final TestInputTopic<byte[], byte[]> events;
        final TestInputTopic<byte[], byte[]> ops;
        final TestOutputTopic<String, OperationalEvent> derived;
        final OpsTotals totals = new OpsTotals();
        final AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
        final AvroWireSerde<OperationalEvent> opsSerde = AvroWireSerde.forValues(h.registry, OperationalEvent.class);

        Run() {
            Properties p = new Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "ops-" + UUID.randomUUID());
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            driver = new TopologyTestDriver(OpsTopology.build(h.topics, h.registry, totals), p);
            drivers.add(driver);
            events = driver.createInputTopic(h.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
            ops = driver.createInputTopic(h.topics.ops(), new ByteArraySerializer(), new ByteArraySerializer());
            derived = driver.createOutputTopic(
                    h.topics.ops(),
                    new StringDeserializer(),
                    AvroWireSerde.forValues(h.registry, OperationalEvent.class));
        }

        Run feed(List<MemoryEvent> chain, List<OperationalEvent> recorded) {
            for (MemoryEvent e : chain) {
                events.pipeInput(key(e.getSpace()), eventSerde.serialize(h.topics.events(), e));
            }
            for (OperationalEvent o : recorded) {
                ops.pipeInput(key(o.getSpace()), opsSerde.serialize(h.topics.ops(), o));
            }
            return this;
        }

        List<Count> counts(Instant since, Instant until, Bucket bucket) {
            KeyValueStore<String, Long> store = driver.getKeyValueStore(OpsTopology.COUNTS);
            return new OpsCounts(() -> store).counts(SPACE, since, until, bucket);
        }
    }

    private static byte[] key(String space) {
        return space.getBytes(StandardCharsets.UTF_8);
    }

    private static OperationalEvent search(Instant at, double sim) {
        return OperationalEvent.newBuilder()
                .setSpace(SPACE)
                .setActor(ChainHarness.AGENT)
                .setNode("hotpath")
                .setOp("search")
                .setStatus("ok")
                .setSim(sim)
                .setTs(at)
                .build();
    }

    /** Two hours of writes by an agent and a worker, and two searches recorded by the API. */
    private List<OperationalEvent> writeTwoHours() {
        String a = h.submit(Requests.create(
                        SPACE,
                        ChainHarness.AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Ana moved to Lisbon")
                                .setCategory("profile")
                                .build()))
                .getMemoryId();
        String b = h.submit(Requests.create(
                        SPACE,
                        ChainHarness.AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Met Ana at the cafe")
                                .setKind(MemoryKind.EPISODIC)
                                .build()))
                .getMemoryId();
        h.advance(Duration.ofHours(1));
        h.submit(Requests.updateContent(SPACE, ChainHarness.AGENT, a, "Ana moved to Porto"));
        h.submit(Requests.link(SPACE, Requests.actor(ActorType.WORKER, "linker"), a, b, "related_to", 0.9));
        h.submit(Requests.delete(SPACE, ChainHarness.AGENT, b));
        return List.of(search(h.clock.instant(), 0.82), search(h.clock.instant().plusSeconds(5), 0.4));
    }

    @Test
    void countsWritesFromTheChainAndRecordedSearchesPerHourNodeOpAndStatus() {
        List<OperationalEvent> searches = writeTwoHours();
        Instant first = h.chain().get(0).getOccurredAt();
        Instant hour0 = Bucket.HOUR.start(first);
        Instant hour1 = hour0.plus(Duration.ofHours(1));
        Run run = new Run().feed(h.chain(), searches);

        assertThat(run.derived.readValuesToList())
                .extracting(o -> o.getNode() + "/" + o.getOp() + "/" + o.getStatus())
                .containsExactly(
                        "api/create/ok", "episodic/create/ok", "api/update/ok", "worker/link/ok", "api/delete/ok");
        List<Count> hours = run.counts(hour0.minus(Duration.ofHours(3)), hour1.plus(Duration.ofHours(1)), Bucket.HOUR);
        assertThat(hours)
                .containsExactly(
                        new Count(hour0, "api", "create", "ok", 1), new Count(hour0, "episodic", "create", "ok", 1),
                        new Count(hour1, "api", "delete", "ok", 1), new Count(hour1, "api", "update", "ok", 1),
                        new Count(hour1, "hotpath", "search", "ok", 2), new Count(hour1, "worker", "link", "ok", 1));
        assertThat(run.counts(hour1, hour1.plus(Duration.ofHours(1)), Bucket.HOUR))
                .hasSize(4);
        assertThat(run.counts(hour0, hour1, Bucket.HOUR))
                .as("until is exclusive")
                .hasSize(2);
        assertThat(run.totals.count(new OpsTotals.Labels("hotpath", "search", "ok")))
                .isEqualTo(2);
        assertThat(run.totals.count(new OpsTotals.Labels("api", "create", "ok")))
                .isEqualTo(1);
    }

    @Test
    void dayBucketsSumTheHours() {
        List<OperationalEvent> searches = writeTwoHours();
        Instant day = Bucket.DAY.start(h.chain().get(0).getOccurredAt());
        Run run = new Run().feed(h.chain(), searches);

        List<Count> days = run.counts(day, day.plus(Duration.ofDays(1)), Bucket.DAY);

        assertThat(days)
                .containsExactly(
                        new Count(day, "api", "create", "ok", 1),
                        new Count(day, "api", "delete", "ok", 1),
                        new Count(day, "api", "update", "ok", 1),
                        new Count(day, "episodic", "create", "ok", 1),
                        new Count(day, "hotpath", "search", "ok", 2),
                        new Count(day, "worker", "link", "ok", 1));
        assertThat(run.counts(day.minus(Duration.ofDays(2)), day, Bucket.DAY)).isEmpty();
    }

    @Test
    void theSameInputTwiceGivesTheSameBucketsAndAReplayedChainIsNotCountedAgain() {
        List<OperationalEvent> searches = writeTwoHours();
        Instant since = Instant.EPOCH;
        Instant until = h.clock.instant().plus(Duration.ofDays(1));
        Run first = new Run().feed(h.chain(), searches);
        h.advance(Duration.ofDays(3)); // the wall clock moves on: the buckets follow the records' ts only
        Run second = new Run().feed(h.chain(), searches);

        assertThat(second.counts(since, until, Bucket.HOUR))
                .isEqualTo(first.counts(since, until, Bucket.HOUR))
                .isNotEmpty();

        first.feed(h.chain(), List.of());
        assertThat(first.derived.readValuesToList())
                .as("each event derived once")
                .hasSize(5);
        assertThat(first.counts(since, until, Bucket.HOUR)).isEqualTo(second.counts(since, until, Bucket.HOUR));
    }
}
