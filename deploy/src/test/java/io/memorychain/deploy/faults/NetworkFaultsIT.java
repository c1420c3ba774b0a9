package io.memorychain.deploy.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.registry.ConfluentRegistryClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Multi-host fault tests without Docker (docs/testing.md, "Network faults"): 3 KRaft brokers (Kafka's own server,
 * replication factor 3, min ISR 2), 2 service instances (memory-server's jar) and a worker (memory-worker's
 * {@code lifecycle}), each a separate JVM in its own network namespace on a bridge, the registry beside the test. A
 * mixed load of clients writes, updates and reads through both instances while the test, one fault after the other,
 * SIGKILLs a broker, an instance and the worker (each restarted), partitions an instance from every broker, partitions
 * a broker from the other two, and makes two hosts' links lossy and slow. Every call is recorded with its invocation
 * and completion. Then, with every fault healed and the system settled: every acknowledged write is on the chain
 * exactly once (and no write twice), every chain verifies, no read returned state older than a write already
 * acknowledged to that client, and the partitioned instance said DOWN with a reason and came back UP without anyone
 * acting. Needs root (namespaces), iproute2 and nftables: elsewhere it is reported as skipped with the reason, never as
 * passed.
 */
@Tag("integration")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class NetworkFaultsIT {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkFaultsIT.class);
    private static final List<String> HOSTS =
            List.of("kafka-1", "kafka-2", "kafka-3", "memory-1", "memory-2", "worker");
    private static final int CLIENTS = 4;
    private static final Duration STARTUP = Duration.ofMinutes(3);
    private static final Duration RECOVERY = Duration.ofSeconds(90);
    private static final String LIFECYCLE_GROUP = "memory-chain-lifecycle";

    private final History history = new History();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Deque<AutoCloseable> cleanup = new ArrayDeque<>();

    private Network net;
    private KafkaCluster kafka;
    private Admin admin;
    private Registry registry;
    private final List<MemoryInstance> instances = new ArrayList<>();
    private Child worker;

    @Test
    void acknowledgedWritesSurviveCrashesPartitionsAndALossyNetwork() throws Exception {
        String cannot = Network.cannotRun();
        assumeTrue(cannot == null, () -> "needs network namespaces, nftables and tc as root: " + cannot);
        Path serverJar = jar("faults.server.jar");
        Path workerJar = jar("faults.worker.jar");
        Path dir = Path.of("target", "faults").toAbsolutePath();
        deleteTree(dir);
        Files.createDirectories(dir);
        Network.removeLeftovers();
        long started = System.nanoTime();
        try {
            net = Network.create(HOSTS);
            cleanup.push(net);
            startTopology(dir, serverJar, workerJar);
            runFaults(dir);
        } finally {
            closeAll();
            List<String> report = history.report(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            report.forEach(LOG::info);
            Files.write(dir.resolve("report.txt"), report);
            history.writeOperations(dir.resolve("operations.csv"));
        }
        assertThat(history.anomalies()).as("anomalies (see the report above)").isEmpty();
    }

    private void startTopology(Path dir, Path serverJar, Path workerJar) throws Exception {
        Host root = net.root();
        // one signing key and one content master key for every instance (deploy/compose's keygen)
        Path keys = dir.resolve("keys");
        Child keygen = new Child(
                "keygen",
                root,
                List.of(
                        java(),
                        "-jar",
                        workerJar.toString(),
                        "keygen",
                        "--out",
                        keys.resolve("chain-signing.key").toString()),
                Map.of(),
                dir.resolve("keygen.log"));
        keygen.start();
        keygen.awaitExit(Duration.ofSeconds(60));

        registry = Registry.start(root, dir);
        cleanup.push(registry);
        kafka = KafkaCluster.start(List.of(net.host("kafka-1"), net.host("kafka-2"), net.host("kafka-3")), dir);
        cleanup.push(kafka);
        admin = kafka.admin();
        cleanup.push(admin);
        awaitCondition("the registry answering", STARTUP, () -> registry.ready(http));
        awaitCondition("3 brokers registered", STARTUP, () -> kafka.allBrokersUp(admin));
        kafka.brokers().forEach(Child::checkIsTheJvm);

        String spaces = "fault-*";
        for (String name : List.of("memory-1", "memory-2")) {
            Path data = dir.resolve(name).resolve("data");
            Files.createDirectories(data.resolve("keys"));
            for (String file : List.of("chain-signing.key", "chain-signing.key.pub", "content-master.key")) {
                Files.copy(keys.resolve(file), data.resolve("keys").resolve(file));
            }
            MemoryInstance instance = MemoryInstance.create(
                    net.host(name),
                    serverJar,
                    data,
                    kafka.bootstrapServers(),
                    registry.url(),
                    name.equals("memory-1"),
                    spaces);
            instances.add(instance);
        }
        cleanup.push(() -> instances.parallelStream().forEach(i -> i.process().kill()));
        // the first instance creates the topics and issues the first keys; the second starts once they exist
        instances.get(0).process().start();
        Path apiKeys = dir.resolve("memory-1").resolve("data").resolve("keys").resolve("api-keys.env");
        awaitCondition("memory-1 issuing the first API keys", STARTUP, () -> {
            instances.get(0).process().checkAlive();
            return Files.exists(apiKeys) && agentKeyIn(apiKeys);
        });
        instances.get(1).process().start();
        awaitUp(instances.get(0), STARTUP);
        awaitUp(instances.get(1), STARTUP);
        instances.forEach(i -> i.process().checkIsTheJvm());

        worker = new Child(
                "worker",
                net.host("worker"),
                List.of(
                        java(),
                        "-Xmx256m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Djava.net.preferIPv4Stack=true",
                        "-jar",
                        workerJar.toString(),
                        "lifecycle",
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--registry-url",
                        registry.url(),
                        "--state-dir",
                        dir.resolve("worker").resolve("lifecycle").toString(),
                        "--check-interval",
                        "PT5S"),
                Map.of(),
                dir.resolve("worker.log"));
        cleanup.push(worker::kill);
        worker.start();
        awaitCondition("the lifecycle worker in its group", STARTUP, this::workerInGroup);
        worker.checkIsTheJvm();
    }

    private void runFaults(Path dir) throws Exception {
        String key =
                agentKey(dir.resolve("memory-1").resolve("data").resolve("keys").resolve("api-keys.env"));
        awaitCondition("memory-2 knowing the API key", STARTUP, () -> authenticates(instances.get(1), key));
        HealthWatch watch = new HealthWatch(instances, history);
        cleanup.push(watch);
        watch.start();

        AtomicBoolean running = new AtomicBoolean(true);
        List<Client> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 1; c <= CLIENTS; c++) {
            Client client = new Client(
                    c, List.of("fault-c" + c + "-a", "fault-c" + c + "-b"), instances, key, history, running);
            clients.add(client);
            Thread t = new Thread(client, "client-" + c);
            t.setDaemon(true);
            threads.add(t);
        }
        history.note("load started: " + CLIENTS + " clients, 2 spaces each");
        threads.forEach(Thread::start);
        try {
            hold(Duration.ofSeconds(3));
            killAndRestartBroker("kafka-2");
            // memory-2 restarts (a minute on two busy cores) while the worker and a broker are hit
            long instanceKilled = killAndRestartInstance(instances.get(1));
            killAndRestartWorker();
            partitionBroker("kafka-3");
            awaitUp(instances.get(1), STARTUP);
            history.fault("SIGKILL instance memory-2, restarted", instanceKilled, "UP again");
            partitionInstanceFromBrokers(instances.get(0));
            degradeLinks(List.of("memory-2", "kafka-1"));
        } finally {
            running.set(false);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(40));
            }
        }
        history.note("load stopped");
        awaitSettled("the end of the run");
        clients.forEach(Client::readAll);
        history.note("read back every acknowledged memory through both instances: "
                + clients.stream().mapToInt(Client::memories).sum() + " memories");
        checkChains(dir);
    }

    // ---- the faults

    private void killAndRestartBroker(String name) throws Exception {
        long at = history.now();
        Child broker = kafka.broker(name);
        broker.kill();
        // down until the cluster has noticed (fenced it: broker.session.timeout.ms), so that "back" below means back
        if (!within("broker " + name + " fenced", RECOVERY, () -> kafka.fenced(admin, name))) {
            history.anomaly("the cluster still named the killed broker " + name + " after " + RECOVERY);
        }
        broker.start();
        awaitBrokers("broker " + name + " back");
        history.fault("SIGKILL broker " + name + ", restarted", at, "");
    }

    /** Kills the instance and starts it again (not waiting for it); returns when it was killed. */
    private long killAndRestartInstance(MemoryInstance instance) throws Exception {
        long at = history.now();
        instance.process().kill();
        hold(Duration.ofSeconds(3));
        instance.process().start();
        return at;
    }

    private void killAndRestartWorker() throws Exception {
        long at = history.now();
        worker.kill();
        hold(Duration.ofSeconds(3));
        worker.start();
        if (!within("the worker back in its group", RECOVERY, this::workerInGroup)) {
            history.anomaly("the lifecycle worker did not rejoin its group within " + RECOVERY);
        }
        history.fault("SIGKILL worker (lifecycle), restarted", at, "");
    }

    /**
     * memory-1 cut off from every broker (clients, the registry and memory-2 still reach it): it cannot write, so it
     * must say so on /health with a reason, and be UP again once the network heals, without anyone acting.
     */
    private void partitionInstanceFromBrokers(MemoryInstance instance) throws Exception {
        // UP first, so that what it says next is about the partition
        if (!within(
                instance.name() + " UP before the partition",
                RECOVERY,
                () -> instance.health(http).up())) {
            history.anomaly(instance.name() + " not UP before its partition: "
                    + instance.health(http).body());
        }
        long at = history.now();
        List<Host> brokers = List.of(net.host("kafka-1"), net.host("kafka-2"), net.host("kafka-3"));
        net.partition(instance.process().host(), brokers);
        Duration noticeWithin = Duration.ofSeconds(60);
        HealthSample[] seen = new HealthSample[1];
        boolean down = within(instance.name() + " saying it is not UP", noticeWithin, () -> {
            HealthSample h = instance.health(http);
            seen[0] = h;
            return h.saysNotUp();
        });
        String note;
        if (!down) {
            note = "stayed UP";
            history.anomaly(instance.name() + " cut off from every broker still said UP after " + noticeWithin + ": "
                    + (seen[0] == null ? "" : seen[0].body()));
        } else if (seen[0].reason().isEmpty()) {
            note = "DOWN without a reason";
            history.anomaly(instance.name() + " said " + seen[0].status() + " with no reason: " + seen[0].body());
        } else {
            note = "said DOWN after " + (history.now() - at) / 1000 + " s: " + seen[0].reason();
        }
        hold(Duration.ofSeconds(3));
        net.heal(instance.process().host());
        long healed = history.now();
        if (within(
                instance.name() + " UP again",
                RECOVERY,
                () -> instance.health(http).up())) {
            note += "; UP again " + (history.now() - healed) / 1000 + " s after healing";
        } else {
            history.anomaly(instance.name() + " not UP " + RECOVERY + " after the partition healed: "
                    + instance.health(http).body());
        }
        history.fault("partition " + instance.name() + " | kafka-1,2,3", at, note);
    }

    private void partitionBroker(String name) throws Exception {
        long at = history.now();
        List<Host> others = HOSTS.stream()
                .filter(h -> h.startsWith("kafka-") && !h.equals(name))
                .map(net::host)
                .toList();
        net.partition(net.host(name), others);
        hold(Duration.ofSeconds(10));
        net.heal(net.host(name));
        awaitBrokers("partition of " + name + " healed");
        history.fault("partition " + name + " | the other brokers", at, "held 10 s");
    }

    private void degradeLinks(List<String> names) throws Exception {
        long at = history.now();
        for (String name : names) {
            net.degrade(net.host(name), 10, "2mbit", 400);
        }
        hold(Duration.ofSeconds(10));
        for (String name : names) {
            net.restore(net.host(name));
        }
        history.fault(
                "lossy, slow links of " + String.join(", ", names),
                at,
                "10% loss each way, 2 Mbit/s with up to 400 ms queued; held 10 s");
    }

    // ---- waiting

    /** Every broker back and min ISR everywhere: the cluster takes writes, and the next fault can start. */
    private void awaitBrokers(String when) {
        if (!within("min ISR everywhere after " + when, RECOVERY, () -> kafka.replicated(admin, 2))) {
            history.anomaly("a partition below min ISR " + RECOVERY + " after " + when);
        }
    }

    /** At the end: every instance UP and every partition fully replicated, without anyone acting. */
    private void awaitSettled(String when) {
        for (MemoryInstance instance : instances) {
            if (!within(
                    instance.name() + " UP after " + when,
                    RECOVERY,
                    () -> instance.health(http).up())) {
                history.anomaly(instance.name() + " not UP " + RECOVERY + " after " + when + ": "
                        + instance.health(http).body());
            }
        }
        if (!within("every partition fully replicated after " + when, RECOVERY, () -> kafka.replicated(admin, 3))) {
            history.anomaly("partitions not fully replicated " + RECOVERY + " after " + when);
        }
    }

    private void awaitUp(MemoryInstance instance, Duration atMost) {
        awaitCondition(instance.name() + " UP", atMost, () -> {
            instance.process().checkAlive();
            return instance.health(http).up();
        });
    }

    /** Waits for the condition; a child that exited, or the deadline, fails the test. */
    private static void awaitCondition(String what, Duration atMost, Callable<Boolean> condition) {
        await(what)
                .atMost(atMost)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsMatching(e -> !(e instanceof IllegalStateException))
                .until(condition);
    }

    /** Whether the condition held within the time (polled twice a second). */
    private static boolean within(String what, Duration atMost, Callable<Boolean> condition) {
        try {
            await(what)
                    .atMost(atMost)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** Keeps a fault in place (or the load running) for a while: the length of a phase, not a wait for a condition. */
    private void hold(Duration d) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(d.toMillis());
    }

    private boolean workerInGroup() throws Exception {
        worker.checkAlive();
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(LIFECYCLE_GROUP))
                .describedGroups()
                .get(LIFECYCLE_GROUP)
                .get(8, TimeUnit.SECONDS);
        return group.groupState() == GroupState.STABLE && !group.members().isEmpty();
    }

    private boolean authenticates(MemoryInstance instance, String key) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/v1/me"))
                        .header("Authorization", "Bearer " + key)
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200;
    }

    // ---- the checks on the chain

    private void checkChains(Path dir) {
        try (ConfluentRegistryClient schemas = new ConfluentRegistryClient(registry.url())) {
            ChainCheck check = new ChainCheck(
                    kafka.bootstrapServers(),
                    "memory.events.v1",
                    schemas,
                    KeyRing.read(dir.resolve("keys").resolve("chain-signing.key.pub")));
            check.verifyAll(history);
            List<ChainCheck.Event> events = check.events();
            int applied = ChainCheck.matchWrites(history, events);
            history.note("events on the chain: " + events.size() + "; writes never acknowledged but applied (once): "
                    + applied);
        }
        if (history.acks().size() < 20) {
            history.anomaly("only " + history.acks().size() + " writes acknowledged: the load did not run");
        }
    }

    // ---- set-up helpers

    private static Path jar(String property) {
        String value = System.getProperty(property);
        assertThat(value)
                .as("system property " + property + " (set by deploy's pom)")
                .isNotBlank();
        Path jar = Path.of(value);
        assertThat(jar)
                .as("the jar of a package build (./mvnw -B verify builds it first)")
                .exists();
        return jar;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static boolean agentKeyIn(Path envFile) throws IOException {
        return Files.readAllLines(envFile).stream().anyMatch(l -> l.contains("MEMORY_AGENT_KEY="));
    }

    private static String agentKey(Path envFile) throws IOException {
        return Files.readAllLines(envFile).stream()
                .map(l -> l.replaceFirst("^export ", ""))
                .filter(l -> l.startsWith("MEMORY_AGENT_KEY="))
                .map(l -> l.substring("MEMORY_AGENT_KEY=".length())
                        .replace("'", "")
                        .replace("\"", ""))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no MEMORY_AGENT_KEY in " + envFile));
    }

    private void closeAll() {
        while (!cleanup.isEmpty()) {
            try {
                cleanup.pop().close();
            } catch (Exception e) {
                LOG.warn("Cleanup step failed: {}", e.toString());
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
