package io.memorychain.deploy.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three KRaft nodes of Kafka's own server ({@code kafka.Kafka}, from the test classpath's {@code kafka_2.13}), each a
 * combined broker and controller in its own namespace, configured as deploy/compose configures its brokers: a static
 * quorum of the three, replication factor 3, min ISR 2 (transaction log too), no topic auto-creation. Storage is
 * formatted once with Kafka's {@code StorageTool}. Heaps and thread counts are small, and brokers are fenced and
 * replicas dropped from the ISR sooner than by default, so that faults play out within seconds.
 */
final class KafkaCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaCluster.class);
    static final int PORT = 9092;
    private static final int CONTROLLER_PORT = 9093;

    private final List<Child> brokers;
    private final String bootstrap;

    private KafkaCluster(List<Child> brokers, String bootstrap) {
        this.brokers = brokers;
        this.bootstrap = bootstrap;
    }

    /** Writes each node's configuration, formats its storage and starts the three JVMs (not waiting for them). */
    static KafkaCluster start(List<Host> hosts, Path dir) {
        String clusterId = Uuid.randomUuid().toString();
        List<String> voterList = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            voterList.add((i + 1) + "@" + hosts.get(i).address() + ":" + CONTROLLER_PORT);
        }
        String voters = String.join(",", voterList);
        String bootstrap = hosts.stream().map(h -> h.address() + ":" + PORT).collect(Collectors.joining(","));
        Path logging = writeLogging(dir);
        List<Child> formats = new ArrayList<>();
        List<Child> children = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            Host host = hosts.get(i);
            Path nodeDir = dir.resolve(host.name());
            Path config = writeConfig(nodeDir, i + 1, host, voters);
            Child format = new Child(
                    "format-" + host.name(),
                    host,
                    jvm(
                            List.of(
                                    "-Dlogback.configurationFile=" + logging,
                                    "kafka.tools.StorageTool",
                                    "format",
                                    "-t",
                                    clusterId,
                                    "-c",
                                    config.toString()),
                            "128m"),
                    Map.of(),
                    nodeDir.resolve("format.log"));
            format.start();
            formats.add(format);
            children.add(new Child(
                    host.name(),
                    host,
                    jvm(List.of("-Dlogback.configurationFile=" + logging, "kafka.Kafka", config.toString()), "256m"),
                    Map.of(),
                    nodeDir.resolve("server.log")));
        }
        formats.forEach(f -> f.awaitExit(Duration.ofSeconds(90)));
        children.forEach(Child::start);
        return new KafkaCluster(children, bootstrap);
    }

    private static Path writeConfig(Path nodeDir, int nodeId, Host host, String voters) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", String.valueOf(nodeId));
        p.setProperty("controller.quorum.voters", voters);
        p.setProperty(
                "listeners",
                "PLAINTEXT://" + host.address() + ":" + PORT + ",CONTROLLER://" + host.address() + ":"
                        + CONTROLLER_PORT);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + host.address() + ":" + PORT);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", nodeDir.resolve("data").toString());
        p.setProperty("default.replication.factor", "3");
        p.setProperty("min.insync.replicas", "2");
        p.setProperty("offsets.topic.replication.factor", "3");
        p.setProperty("transaction.state.log.replication.factor", "3");
        p.setProperty("transaction.state.log.min.isr", "2");
        p.setProperty("share.coordinator.state.topic.replication.factor", "3");
        p.setProperty("share.coordinator.state.topic.min.isr", "2");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // small: 50 partitions each by default, seconds of start-up for nothing on two cores
        p.setProperty("offsets.topic.num.partitions", "5");
        p.setProperty("transaction.state.log.num.partitions", "5");
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "2");
        p.setProperty("background.threads", "2");
        p.setProperty("num.replica.fetchers", "1");
        p.setProperty("log.cleaner.threads", "1");
        p.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
        // faults within seconds: a silent broker fenced after 6 s (default 9), a stalled follower out of the ISR after
        // 10 s (default 30)
        p.setProperty("broker.session.timeout.ms", "6000");
        p.setProperty("broker.heartbeat.interval.ms", "1000");
        p.setProperty("replica.lag.time.max.ms", "10000");
        try {
            Files.createDirectories(nodeDir);
            Path file = nodeDir.resolve("server.properties");
            try (var out = Files.newBufferedWriter(file)) {
                p.store(out, "NetworkFaultsIT node " + nodeId);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The brokers' logging (the test classpath's logback): Kafka's warnings and errors, with the thread. */
    private static Path writeLogging(Path dir) {
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve("broker-logback.xml"), """
                    <configuration>
                      <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                        <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>
                      </appender>
                      <logger name="kafka.server.BrokerServer" level="INFO"/>
                      <logger name="org.apache.kafka.controller" level="INFO"/>
                      <root level="WARN"><appender-ref ref="OUT"/></root>
                    </configuration>
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JVM on the test's classpath (Kafka's server is on it) with a small heap. */
    static List<String> jvm(List<String> mainAndArgs, String heap) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Djava.net.preferIPv4Stack=true",
                "-cp",
                System.getProperty("java.class.path")));
        command.addAll(mainAndArgs);
        return command;
    }

    String bootstrapServers() {
        return bootstrap;
    }

    List<Child> brokers() {
        return brokers;
    }

    Child broker(String name) {
        return brokers.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8_000);
        return Admin.create(p);
    }

    /** Whether every broker is registered and unfenced (as the cluster's metadata names them). */
    boolean allBrokersUp(Admin admin) throws Exception {
        brokers.forEach(Child::checkAlive);
        return admin.describeCluster().nodes().get(8, TimeUnit.SECONDS).size() == brokers.size();
    }

    /** Whether the cluster's metadata no longer names the broker (its controller fenced it). */
    boolean fenced(Admin admin, String name) throws Exception {
        int id = brokers.indexOf(broker(name)) + 1;
        return admin.describeCluster().nodes().get(8, TimeUnit.SECONDS).stream().noneMatch(n -> n.id() == id);
    }

    /**
     * Whether every broker is up and every partition of every topic has a leader and at least {@code minInSync}
     * replicas in sync (2: writes are accepted everywhere; 3: a further fault of one broker still leaves min ISR).
     */
    boolean replicated(Admin admin, int minInSync) throws Exception {
        if (!allBrokersUp(admin)) {
            return false;
        }
        Set<String> names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                .names()
                .get(8, TimeUnit.SECONDS);
        Collection<TopicDescription> topics = admin.describeTopics(names)
                .allTopicNames()
                .get(8, TimeUnit.SECONDS)
                .values();
        for (TopicDescription t : topics) {
            for (TopicPartitionInfo p : t.partitions()) {
                if (p.leader() == null
                        || p.isr().size() < Math.min(minInSync, p.replicas().size())) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void close() {
        brokers.parallelStream().forEach(Child::kill);
        LOG.info("Brokers stopped");
    }
}
