package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
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
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault suite, broker loss (issue #12 item 3, docs/architecture.md §19 "Faults"): its own cluster of 3 KRaft brokers
 * (replication factor 3, min ISR 2 for every topic, as deployed), the real sequencer and projection, an agent's
 * {@link MemoryPublisher}. Half of the load is published, one broker (the leader of the chain's partition 0) is shut
 * down while outcomes are still arriving, the other half is published to the 2 remaining brokers. The broker is not
 * brought back: 2 of 3 replicas keep min ISR 2, so the cluster must keep accepting writes. (The KRaft controller is a
 * separate node that stays up: see {@link SharedKafka#startCluster(int)}.)
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class BrokerFailureIT {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFailureIT.class);
    private static final int SPACES = 10;
    private static final int REQUESTS = 1_600;

    @Test
    @SuppressWarnings("try") // KafkaClusterTestKit.close() may throw InterruptedException: the test fails then
    void losingOneOfThreeBrokersMidLoadLosesNothingDuplicatesNothingAndEveryChainVerifies() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        try (KafkaClusterTestKit cluster = SharedKafka.startCluster(3)) {
            String bootstrap = cluster.bootstrapServers();
            MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                    bootstrap,
                    topics,
                    Files.createTempDirectory("broker-loss"),
                    prefix + "app",
                    3,
                    (short) 3,
                    WriteSettings.defaults());
            try (SchemaRegistry registry = new KafkaTopicSchemaRegistry(bootstrap, topics.schemas(), (short) 3);
                    MemoryChainRuntime runtime =
                            MemoryChainRuntime.start(settings, registry, keys, null, Duration.ofSeconds(90));
                    MemoryPublisher publisher = new MemoryPublisher(bootstrap, topics, registry)) {
                assertReplicated(bootstrap, topics);

                List<MemoryRequest> requests = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++) {
                    requests.add(Requests.create("broker-" + (i % SPACES), ChainHarness.AGENT, "memory number " + i)
                            .build());
                }
                AtomicInteger answered = new AtomicInteger();
                Map<String, CompletableFuture<MemoryOutcome>> futures = new LinkedHashMap<>();
                Function<MemoryRequest, CompletableFuture<MemoryOutcome>> publish =
                        r -> publisher.publish(r).whenComplete((o, e) -> answered.incrementAndGet());
                requests.subList(0, REQUESTS / 2).forEach(r -> futures.put(r.getRequestId(), publish.apply(r)));
                org.awaitility.Awaitility.await("a third of the first half answered")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> answered.get() >= REQUESTS / 6);

                int victim = leaderOfPartitionZero(bootstrap, topics.events());
                int answeredAtKill = answered.get();
                cluster.brokers().get(victim).shutdown();
                LOG.info(
                        "INJECTED: broker {} (leader of {}-0) shut down with {} of {} outcomes " + "in; it stays down",
                        victim,
                        topics.events(),
                        answeredAtKill,
                        REQUESTS / 2);
                assertThat(answeredAtKill)
                        .as("the node went down while requests were in flight")
                        .isLessThan(REQUESTS / 2);
                requests.subList(REQUESTS / 2, REQUESTS).forEach(r -> futures.put(r.getRequestId(), publish.apply(r)));

                // an agent retries a request whose publish failed with the same request id (MemoryPublisher's contract)
                Map<String, MemoryOutcome> outcomes = new HashMap<>();
                List<MemoryRequest> retry = new ArrayList<>();
                for (MemoryRequest r : requests) {
                    try {
                        outcomes.put(
                                r.getRequestId(), futures.get(r.getRequestId()).get(90, TimeUnit.SECONDS));
                    } catch (ExecutionException e) {
                        LOG.info(
                                "Publish of {} failed ({}); retrying with the same request id",
                                r.getRequestId(),
                                e.getCause().toString());
                        retry.add(r);
                    }
                }
                for (MemoryRequest r : retry) {
                    outcomes.put(r.getRequestId(), publisher.publish(r).get(90, TimeUnit.SECONDS));
                }

                assertThat(outcomes).hasSize(REQUESTS);
                assertThat(outcomes.values())
                        .allSatisfy(o -> assertThat(o.getAccepted())
                                .as("outcome of %s: %s %s", o.getRequestId(), o.getCode(), o.getMessage())
                                .isTrue());

                List<MemoryEvent> events = EventsTopic.readAll(bootstrap, topics.events(), registry);
                Map<String, Long> eventsPerRequest = events.stream()
                        .collect(Collectors.groupingBy(MemoryEvent::getRequestId, Collectors.counting()));
                assertThat(eventsPerRequest)
                        .as("one event per accepted request, no duplicate request id")
                        .hasSize(REQUESTS)
                        .allSatisfy((id, count) -> assertThat(count).as(id).isOne());
                assertThat(eventsPerRequest.keySet()).isEqualTo(outcomes.keySet());
                Map<String, List<MemoryEvent>> chains = events.stream()
                        .collect(Collectors.groupingBy(MemoryEvent::getSpace, LinkedHashMap::new, Collectors.toList()));
                assertThat(chains).hasSize(SPACES);
                chains.forEach((space, chain) -> {
                    assertThat(chain)
                            .extracting(MemoryEvent::getSeq)
                            .as("seqs of %s", space)
                            .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, chain.size())
                                    .boxed()
                                    .toList());
                    ChainEndToEndIT.assertIntact(chain, keys.publicRing());
                });
                for (MemoryEvent e : events) {
                    MemoryOutcome o = outcomes.get(e.getRequestId());
                    assertThat(o.getSeq())
                            .as("outcome seq of %s", e.getRequestId())
                            .isEqualTo(e.getSeq());
                }

                Map<String, VerificationResult> verified = new KafkaChainReader(
                                Map.of("bootstrap.servers", bootstrap),
                                topics.events(),
                                registry,
                                keys.publicRing(),
                                SignatureMode.ALL)
                        .verifyAll();
                assertThat(verified)
                        .hasSize(SPACES)
                        .allSatisfy((space, result) -> assertThat(result.ok())
                                .as("%s: %s", space, result)
                                .isTrue());

                for (Map.Entry<String, List<MemoryEvent>> chain : chains.entrySet()) {
                    assertThat(runtime.views()
                                    .awaitApplied(
                                            chain.getKey(), chain.getValue().size(), Duration.ofSeconds(60)))
                            .as("projection of %s", chain.getKey())
                            .isTrue();
                }
                for (MemoryRequest r : requests) {
                    MemoryOutcome o = outcomes.get(r.getRequestId());
                    Optional<Memory> memory = runtime.views().memory(r.getSpace(), o.getMemoryId());
                    assertThat(memory).as("view of %s", o.getMemoryId()).isPresent();
                    assertThat(memory.get().getContent())
                            .isEqualTo(((io.memorychain.avro.CreateMemory) r.getOp()).getContent());
                }
                LOG.info(
                        "CHECKED after losing broker {}: {} requests ({} retried after a failed publish), {} accepted "
                                + "outcomes, {} events with one per request id, seqs 1..n in {} chains, every hash, link and "
                                + "signature verified, every memory in the live views",
                        victim,
                        REQUESTS,
                        retry.size(),
                        outcomes.size(),
                        events.size(),
                        chains.size());
            }
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Every data topic and the chain's internal topics are on 3 replicas with min ISR 2. */
    private static void assertReplicated(String bootstrap, Topics topics) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            for (TopicDescription d : admin.describeTopics(topics.dataTopics())
                    .allTopicNames()
                    .get()
                    .values()) {
                assertThat(d.partitions())
                        .allSatisfy(p -> assertThat(p.replicas()).as(d.name()).hasSize(3));
            }
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topics.events());
            String minIsr = admin.describeConfigs(List.of(resource))
                    .all()
                    .get()
                    .get(resource)
                    .get("min.insync.replicas")
                    .value();
            assertThat(minIsr).isEqualTo("2");
        }
    }

    private static int leaderOfPartitionZero(String bootstrap, String topic) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            TopicPartitionInfo p0 = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions()
                    .get(0);
            return p0.leader().id();
        }
    }
}
