package io.memorychain.events.testing;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real in-JVM KRaft broker per test JVM, started on first use and closed when the JVM's tests are done. Tests give
 * themselves unique topics ({@link #uniquePrefix()}) and application ids. Use with
 * {@code @ExtendWith(SharedKafka.class)} and {@link #bootstrapServers()}.
 */
public final class SharedKafka implements BeforeAllCallback {

    private static volatile ClusterResource cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        start(context);
    }

    private static synchronized void start(ExtensionContext context) {
        if (cluster == null) {
            cluster = new ClusterResource(startCluster(1));
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(SharedKafka.class.getName(), cluster);
        }
    }

    public static String bootstrapServers() {
        if (cluster == null) {
            throw new IllegalStateException("Annotate the test class with @ExtendWith(SharedKafka.class)");
        }
        return cluster.kit.bootstrapServers();
    }

    public static String uniquePrefix() {
        return "t" + UUID.randomUUID().toString().substring(0, 8) + ".";
    }

    /**
     * A KRaft cluster: one combined broker+controller node for 1 broker, else {@code brokers} brokers and one dedicated
     * controller; the caller closes it. With 3 or more brokers every topic (including the transaction log, the offsets
     * topic and Streams' internal topics) defaults to replication factor 3 and min ISR 2, as deployed
     * (docs/architecture.md §19), so one node can be lost without losing writes.
     */
    public static KafkaClusterTestKit startCluster(int brokers) {
        try {
            // one KRaft controller: a quorum of 3 combined nodes in the 4.1 test kit killed its raft threads at
            // start (UpdateVoter answered INVALID_REQUEST), and the fault suite is about losing brokers
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setCombined(brokers == 1)
                    .setNumBrokerNodes(brokers)
                    .setNumControllerNodes(1)
                    .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
                    .build();
            String rf = String.valueOf(Math.min(brokers, 3));
            String minIsr = brokers >= 3 ? "2" : "1";
            KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(nodes)
                    .setConfigProp("offsets.topic.replication.factor", rf)
                    .setConfigProp("transaction.state.log.replication.factor", rf)
                    .setConfigProp("transaction.state.log.min.isr", minIsr)
                    .setConfigProp("default.replication.factor", rf)
                    .setConfigProp("min.insync.replicas", minIsr)
                    .setConfigProp("share.coordinator.state.topic.replication.factor", rf)
                    .setConfigProp("share.coordinator.state.topic.min.isr", minIsr)
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    // a test JVM's first group and first transaction create these topics: 50 partitions each by
                    // default, seconds of start-up per test JVM for nothing
                    .setConfigProp("offsets.topic.num.partitions", "5")
                    .setConfigProp("transaction.state.log.num.partitions", "5")
                    .setConfigProp("auto.create.topics.enable", "false")
                    .setConfigProp("unstable.api.versions.enable", "false")
                    .setConfigProp("unstable.feature.versions.enable", "false")
                    .build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            return kit;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the in-JVM Kafka cluster", e);
        }
    }

    public static Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return Admin.create(props);
    }

    public static void createTopics(int partitions, String... names) {
        try (Admin admin = admin()) {
            admin.createTopics(Stream.of(names)
                            .map(n -> new NewTopic(n, partitions, (short) 1))
                            .toList())
                    .all()
                    .get();
            awaitLeaders(admin, List.of(names));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot create topics " + String.join(",", names), e.getCause());
        }
    }

    /**
     * Waits until the broker's metadata names a leader for every partition of the topics: a producer that sends earlier
     * gets NOT_LEADER_OR_FOLLOWER, and an idempotent one can then loop on OUT_OF_ORDER_SEQUENCE_NUMBER.
     */
    private static void awaitLeaders(Admin admin, List<String> topics) throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            if (leadersKnown(admin, topics)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("No leader for every partition of " + topics + " within 30 s");
            }
            Thread.sleep(20); // polling the condition above, not waiting blindly
        }
    }

    /** Whether every partition has a leader; false while the broker does not know a new topic yet. */
    private static boolean leadersKnown(Admin admin, List<String> topics)
            throws InterruptedException, ExecutionException {
        try {
            return admin.describeTopics(topics).allTopicNames().get().values().stream()
                    .allMatch(d -> d.partitions().stream()
                            .allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return false; // created, not yet in the metadata the broker answers from
            }
            throw e;
        }
    }

    public static Map<String, Object> clientProps() {
        return Stream.of(Map.entry("bootstrap.servers", (Object) bootstrapServers()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @SuppressWarnings("try") // kit.close() throws Exception (also InterruptedException): JUnit closes it at the end
    private record ClusterResource(KafkaClusterTestKit kit) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            kit.close();
            cluster = null;
        }
    }
}
