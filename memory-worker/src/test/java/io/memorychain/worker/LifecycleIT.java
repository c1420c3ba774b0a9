package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.lifecycle.LifecycleStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code lifecycle} worker's Streams application next to the real sequencer and projection on a real broker, its
 * clock (injected) moved forward instead of sleeping: unread memories fade, then turn dormant, through requests it
 * publishes as worker:lifecycle; restarted, it publishes none of them again; the chain still verifies.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LifecycleIT {

    @TempDir
    Path dir;

    @Test
    void publishesDecayRequestsOnceEvenAcrossARestartAndTheChainVerifies() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        MovableClock clock = new MovableClock();
        ChainKeys keys = ChainKeys.generate();
        String space = "tenant.life";
        LifecycleCommand.Options options = LifecycleCommand.parse(List.of(
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--application-id",
                prefix + "lifecycle",
                "--state-dir",
                dir.resolve("lifecycle").toString(),
                "--check-interval",
                "PT0.2S"));
        try (SchemaRegistry registry =
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
            String a = create(publisher, space, "The user once tried pottery");
            String b = create(publisher, space, "The user visited Lisbon in 2019");
            LifecycleStatus first = new LifecycleStatus();
            try (KafkaStreams worker = LifecycleCommand.streams(options, registry, clock, first)) {
                worker.start();
                clock.advance(Duration.ofDays(20));
                awaitDecay(runtime, space, DecayStatus.FADING, a, b);
                clock.advance(Duration.ofDays(31));
                awaitDecay(runtime, space, DecayStatus.DORMANT, a, b);
            }
            List<MemoryRequest> before = lifecycleRequests(registry, topics);
            assertThat(before)
                    .extracting(MemoryRequest::getRequestId)
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrder(
                            "decay:" + space + ":" + a + ":1:fading",
                            "decay:" + space + ":" + b + ":1:fading",
                            "decay:" + space + ":" + a + ":2:dormant",
                            "decay:" + space + ":" + b + ":2:dormant");
            assertThat(before).allSatisfy(r -> {
                assertThat(r.getActor()).isEqualTo(Requests.actor(ActorType.WORKER, "lifecycle"));
                assertThat(r.getExpectedVersion()).isNotNull();
            });

            LifecycleStatus second = new LifecycleStatus();
            try (KafkaStreams restarted = LifecycleCommand.streams(options, registry, clock, second)) {
                restarted.start();
                // a dozen checks at the same time as before the restart: everything due was asked for already
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> (Long) second.figures().get("checks") >= 12);
            }
            assertThat(second.requestedTotal())
                    .as("nothing published again after the restart")
                    .isZero();
            assertThat(lifecycleRequests(registry, topics)).hasSameSizeAs(before);
            assertThat(runtime.views().memory(space, a).orElseThrow().getVersion())
                    .isEqualTo(3);

            KafkaChainReader reader = new KafkaChainReader(
                    Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()),
                    topics.events(),
                    registry,
                    KeyRing.of(keys.publicKeyBytes()),
                    SignatureMode.ALL);
            VerificationResult verified = reader.verifySpace(space);
            assertThat(verified.ok()).as("%s", verified).isTrue();
            assertThat(verified.events()).isEqualTo(6);
        }
    }

    private static void awaitDecay(MemoryChainRuntime runtime, String space, DecayStatus status, String... ids) {
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
            for (String id : ids) {
                assertThat(runtime.views().memory(space, id).orElseThrow().getDecayStatus())
                        .isEqualTo(status);
            }
        });
    }

    private static String create(MemoryPublisher publisher, String space, String content) throws Exception {
        MemoryOutcome outcome = publisher
                .publish(Requests.create(space, Requests.actor(ActorType.AGENT, "planner"), content)
                        .build())
                .get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted()).as("%s", outcome).isTrue();
        return outcome.getMemoryId();
    }

    /** Every request on the requests topic by worker:lifecycle, read from the start to the end offsets. */
    private static List<MemoryRequest> lifecycleRequests(SchemaRegistry registry, Topics topics) {
        AvroWireSerde<MemoryRequest> serde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "lifecycle-it-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        List<MemoryRequest> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topics.requests()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    MemoryRequest request = serde.deserialize(r.topic(), r.value());
                    if (request.getActor().getType() == ActorType.WORKER
                            && request.getActor().getId().equals("lifecycle")) {
                        out.add(request);
                    }
                }
            }
        }
        return out;
    }
}
