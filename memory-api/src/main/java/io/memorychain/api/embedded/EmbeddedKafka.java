package io.memorychain.api.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.raft.DynamicVoters;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft broker (combined broker + controller) running in this JVM: the default when no Kafka is
 * configured. Not a test fixture: data lives under {@code logDir} and survives restarts (and kills).
 *
 * <p>First start formats a sibling directory and renames it into place atomically, so a crash during formatting never
 * leaves a half-formatted log directory. The controller port becomes part of the quorum's metadata at format time; it
 * is recorded in {@code <logDir>.properties} and a later start with another controller port is refused with a message
 * instead of a broker that never elects a leader.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final String META = "meta.properties";

    /**
     * @param host interface to listen on (127.0.0.1: the embedded broker is for this machine only)
     * @param brokerPort client port
     * @param controllerPort KRaft controller port; fixed once the log directory is formatted
     * @param logDir the broker's log directory (created and formatted on first start)
     */
    public record Settings(String host, int brokerPort, int controllerPort, Path logDir) {
        public Settings {
            if (brokerPort == controllerPort) {
                throw new IllegalArgumentException("broker and controller ports must differ, both are " + brokerPort);
            }
            logDir = logDir.toAbsolutePath().normalize();
        }

        public String bootstrapServers() {
            return host + ":" + brokerPort;
        }
    }

    private final Settings settings;
    private final KafkaRaftServer server;
    private volatile boolean closed;

    private EmbeddedKafka(Settings settings, KafkaRaftServer server) {
        this.settings = settings;
        this.server = server;
    }

    /** Formats on first use, starts the broker and waits until it answers metadata requests. */
    public static EmbeddedKafka start(Settings settings, Duration timeout) {
        long started = System.nanoTime();
        requireFreePort(settings.host(), settings.brokerPort(), "broker", "memory.embedded.broker-port");
        requireFreePort(settings.host(), settings.controllerPort(), "controller", "memory.embedded.controller-port");
        formatIfNeeded(settings);
        KafkaRaftServer server =
                new KafkaRaftServer(KafkaConfig.fromProps(props(settings, settings.logDir()), false), Time.SYSTEM);
        try {
            server.startup();
            awaitMetadata(settings.bootstrapServers(), timeout);
        } catch (Throwable t) {
            server.shutdown(); // else the controller keeps running
            server.awaitShutdown();
            if (t instanceof EmbeddedKafkaException e) {
                throw e;
            }
            throw new EmbeddedKafkaException("The embedded Kafka broker did not start: " + t.getMessage(), t);
        }
        log.info(
                "Embedded Kafka broker up at {} (controller {}:{}, data in {}) in {} ms",
                settings.bootstrapServers(),
                settings.host(),
                settings.controllerPort(),
                settings.logDir(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return new EmbeddedKafka(settings, server);
    }

    public String bootstrapServers() {
        return settings.bootstrapServers();
    }

    public Settings settings() {
        return settings;
    }

    /** Orderly stop: the caller closes its clients (Streams, producers) first. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        log.info("Stopping the embedded Kafka broker at {}", settings.bootstrapServers());
        server.shutdown();
        server.awaitShutdown();
    }

    static Properties props(Settings s, Path logDir) {
        Properties p = new Properties();
        String controller = s.host() + ":" + s.controllerPort();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.bootstrap.servers", controller);
        p.put("listeners", "PLAINTEXT://" + s.host() + ":" + s.brokerPort() + ",CONTROLLER://" + controller);
        p.put("advertised.listeners", "PLAINTEXT://" + s.host() + ":" + s.brokerPort() + ",CONTROLLER://" + controller);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "10");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "10");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // the log cleaner's key map, allocated on the heap for good: 4 MiB holds ~150,000 keys of a compacted topic per
        // cleaning pass (a larger changelog takes several passes); Kafka's default is 128 MiB, its minimum 1 MiB
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
        // one machine's clients (this process's Streams applications and publishers): fewer threads than a cluster
        // broker's defaults (3 network and 8 request threads per listener, 10 background, 4 group coordinator), each
        // with its stack and buffers (docs/benchmarks.md "Memory of the embedded service"; a cluster keeps its own
        // settings)
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "4");
        p.put("group.coordinator.threads", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "1000");
        p.put("unstable.api.versions.enable", "false");
        p.put("unstable.feature.versions.enable", "false");
        return p;
    }

    private static void formatIfNeeded(Settings s) {
        Path logDir = s.logDir();
        Path portsFile = logDir.resolveSibling(logDir.getFileName() + ".properties");
        if (Files.exists(logDir.resolve(META))) {
            checkControllerPort(s, portsFile);
            return;
        }
        try {
            if (Files.isDirectory(logDir)) {
                try (Stream<Path> entries = Files.list(logDir)) {
                    if (entries.findAny().isPresent()) {
                        throw new EmbeddedKafkaException(
                                logDir + " exists but is not a formatted Kafka log directory (no " + META
                                        + "); move it away or point memory.data-dir elsewhere");
                    }
                }
                Files.delete(logDir);
            }
            Files.createDirectories(logDir.getParent());
            Path tmp = logDir.resolveSibling(logDir.getFileName() + ".formatting");
            deleteRecursively(tmp); // left by a crash during an earlier format
            KafkaConfig cfg = new KafkaConfig(props(s, tmp), false);
            new Formatter()
                    .setPrintStream(new java.io.PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(cfg.nodeId())
                    .setClusterId(Uuid.randomUuid().toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setControllerListenerName(cfg.controllerListenerNames().get(0))
                    .setMetadataLogDirectory(cfg.metadataLogDir())
                    .addDirectory(tmp.toString())
                    .setHasDynamicQuorum(cfg.quorumConfig().voters().isEmpty())
                    .setInitialControllers(DynamicVoters.parse(
                            cfg.nodeId() + "@" + s.host() + ":" + s.controllerPort() + ":" + Uuid.randomUuid()))
                    .run();
            Files.move(tmp, logDir, StandardCopyOption.ATOMIC_MOVE);
            Properties ports = new Properties();
            ports.setProperty("controller.port", String.valueOf(s.controllerPort()));
            ports.setProperty("host", s.host());
            try (OutputStream out = Files.newOutputStream(portsFile)) {
                ports.store(
                        out,
                        "Embedded Kafka: the controller endpoint is part of the quorum metadata; do not change it");
            }
            log.info("Formatted a new embedded Kafka log directory at {}", logDir);
        } catch (EmbeddedKafkaException e) {
            throw e;
        } catch (Exception e) {
            throw new EmbeddedKafkaException(
                    "Cannot format the embedded Kafka log directory " + logDir + ": " + e.getMessage(), e);
        }
    }

    private static void checkControllerPort(Settings s, Path portsFile) {
        if (!Files.exists(portsFile)) {
            return;
        }
        Properties ports = new Properties();
        try (InputStream in = Files.newInputStream(portsFile)) {
            ports.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + portsFile, e);
        }
        String port = ports.getProperty("controller.port");
        String host = ports.getProperty("host");
        if (port != null && !port.equals(String.valueOf(s.controllerPort()))
                || host != null && !host.equals(s.host())) {
            throw new EmbeddedKafkaException(s.logDir() + " was formatted for the controller at " + host + ":" + port
                    + " and cannot move: set memory.embedded.controller-port=" + port + " and memory.embedded.host="
                    + host);
        }
    }

    static void requireFreePort(String host, int port, String what, String property) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new EmbeddedKafkaException(
                    "Cannot start the embedded Kafka " + what + ": port " + port + " on " + host
                            + " is in use (another Memory Chain or Kafka running?). Stop it, choose another port with "
                            + property
                            + ", or use an existing cluster with memory.kafka.bootstrap-servers.");
        }
    }

    private static void awaitMetadata(String bootstrapServers, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "memory-embedded-startup");
        try (Admin admin = Admin.create(p)) {
            Exception last = null;
            while (System.nanoTime() < deadline) {
                try {
                    int ms = (int)
                            Math.max(1, Math.min(5_000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                            .nodes()
                            .get(ms, TimeUnit.MILLISECONDS)
                            .isEmpty()) {
                        admin.listTopics(new ListTopicsOptions().timeoutMs(ms))
                                .names()
                                .get(ms, TimeUnit.MILLISECONDS);
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                }
                TimeUnit.MILLISECONDS.sleep(100); // brief back-off before asking again
            }
            throw new EmbeddedKafkaException(
                    "The embedded Kafka broker at " + bootstrapServers + " did not answer within " + timeout.toSeconds()
                            + " s" + (last == null ? "" : ": " + last.getMessage()),
                    last);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
