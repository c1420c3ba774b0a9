package io.memorychain.api.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.context.ApplicationContext;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #12 item 1 end to end (docs/architecture.md §19): three service instances (Micronaut contexts with the real
 * backend, each its own HTTP port, state directory and instance id, one application id) on the shared broker with
 * topics of 6 partitions. Writes and reads go through every instance for several spaces; a read after a write is
 * checked through an instance that does NOT own the space; one instance is closed while writes and reads go on; then
 * every acknowledged write is readable through both survivors, no read after a returned write missed it, and every
 * chain verifies with exactly the acknowledged events.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MultiInstanceRoutingIT {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static final int INSTANCES = 3;
    private static final List<String> SPACES =
            List.of("route-a", "route-b", "route-c", "route-d", "route-e", "route-f");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final List<EmbeddedServer> servers = new ArrayList<>();
    private static String key;
    private static JsonMapper json;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Acknowledged writes: space -> (memory id -> content). */
    private final Map<String, Map<String, String>> acknowledged = new ConcurrentHashMap<>();

    private final List<String> staleReads = new CopyOnWriteArrayList<>();
    /** The seq of each acknowledged write (memory id -> seq), sent back as X-Memory-Min-Seq by reads after it. */
    private final Map<String, Long> seqs = new ConcurrentHashMap<>();

    @BeforeAll
    static void startThreeInstances() {
        Path keys = null;
        for (int i = 0; i < INSTANCES; i++) {
            Path dataDir =
                    Path.of(System.getProperty("java.io.tmpdir"), "routing-it-node" + i + "-" + UUID.randomUUID());
            if (keys != null) {
                // one signing key and one content master key for all instances, as a deployment mounts them
                // (docs/architecture.md §19): each instance signs and encrypts what its tasks sequence
                copy(keys.resolve("chain-signing.key"), dataDir.resolve("keys").resolve("chain-signing.key"));
                copy(keys.resolve(MasterKey.FILE_NAME), dataDir.resolve("keys").resolve(MasterKey.FILE_NAME));
            }
            servers.add(start("node" + i, freePort(), dataDir));
            keys = dataDir.resolve("keys");
        }
        json = servers.get(0).getApplicationContext().getBean(JsonMapper.class);
        key = servers.get(0)
                .getApplicationContext()
                .getBean(ApiKeys.class)
                .issue(new Principal("router-test", Role.AGENT, "router", List.of("*")), "test")
                .key()
                .toString();
        // the key store is one compacted topic: every instance sees the key within its refresh
        await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(() -> servers.stream()
                        .allMatch(server -> server.getApplicationContext()
                                        .getBean(ApiKeys.class)
                                        .authenticate("Bearer " + key)
                                != null));
    }

    private static void copy(Path from, Path to) {
        try {
            java.nio.file.Files.createDirectories(to.getParent());
            java.nio.file.Files.copy(from, to);
        } catch (IOException e) {
            throw new IllegalStateException("cannot share the key " + from, e);
        }
    }

    private static EmbeddedServer start(String instanceId, int port, Path dataDir) {
        return ApplicationContext.run(
                EmbeddedServer.class,
                Map.ofEntries(
                        Map.entry("micronaut.server.port", port),
                        Map.entry("grpc.server.port", 0),
                        Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                        Map.entry("memory.kafka.partitions", 6),
                        Map.entry("memory.kafka.replication-factor", 1),
                        Map.entry("memory.topic-prefix", PREFIX),
                        Map.entry("memory.data-dir", dataDir.toString()),
                        Map.entry("memory.instance-id", instanceId),
                        Map.entry("memory.instance.advertised-url", "http://localhost:" + port),
                        Map.entry("memory.instance.standby-replicas", 1),
                        Map.entry("memory.auth.bootstrap", false),
                        Map.entry("memory.write-timeout", "10s"),
                        Map.entry("memory.startup-timeout", "90s"),
                        Map.entry("memory.retrieval.linker-enabled", false),
                        Map.entry("memory.refinement.trigger-enabled", false),
                        Map.entry("memory.embeddings.model", "minilm")),
                SharedRegistryFactory.ENV);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() {
        servers.forEach(server -> {
            if (server.getApplicationContext().isRunning()) {
                server.getApplicationContext().close();
            }
        });
        SharedRegistryFactory.closeAll();
    }

    @Test
    void readsAndWritesThroughEveryInstanceSurviveLosingOneWithoutALostWriteOrAStaleRead() throws Exception {
        List<EmbeddedServer> live = new ArrayList<>(servers);
        awaitOneOwnerPerSpace(live);
        Set<Integer> owners = new HashSet<>();
        SPACES.forEach(space -> owners.add(ownerIndex(live, space)));
        assertThat(owners).as("the spaces are spread over several owners").hasSizeGreaterThan(1);

        // every instance writes to every space; each write is read back through an instance that does not own it
        for (String space : SPACES) {
            for (EmbeddedServer via : live) {
                String id = writeUntilAcknowledged(
                        live, live.indexOf(via), space, "fact " + space + " via " + live.indexOf(via));
                EmbeddedServer reader = nonOwner(live, space);
                assertThat(ownerOf(reader, space).kind()).isEqualTo(SpaceOwner.Kind.REMOTE);
                HttpResponse<String> read = send(reader, "GET", space, "/memories/" + id, null, Map.of());
                assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
                assertThat(read.body()).contains(acknowledged.get(space).get(id));
                assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY))
                        .contains("node" + ownerIndex(live, space));
            }
        }

        // gRPC and MCP through an instance that does not own the space: relayed to the owner, its answer returned
        grpcAndMcpThroughANonOwnerAreAnsweredByTheOwner(live, SPACES.get(1));

        // load on the two survivors while the owner of route-a is closed
        int victimIndex = ownerIndex(live, SPACES.get(0));
        EmbeddedServer victim = live.get(victimIndex);
        List<EmbeddedServer> survivors = new ArrayList<>(live);
        survivors.remove(victim);
        Set<String> victimSpaces = new HashSet<>();
        SPACES.stream().filter(s -> ownerIndex(live, s) == victimIndex).forEach(victimSpaces::add);
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicInteger afterKill = new AtomicInteger();
        AtomicInteger victimSpaceWritesAfterKill = new AtomicInteger();
        AtomicBoolean killed = new AtomicBoolean();
        List<Throwable> loadFailures = new CopyOnWriteArrayList<>();
        Thread load = new Thread(
                () -> {
                    int n = 0;
                    try {
                        while (loading.get()) {
                            String space = SPACES.get(n % SPACES.size());
                            int writer = n % survivors.size();
                            String id = writeUntilAcknowledged(survivors, writer, space, "load " + n + " of " + space);
                            readBackOrFlagStale(survivors.get((writer + 1) % survivors.size()), space, id);
                            if (killed.get()) {
                                afterKill.incrementAndGet();
                                if (victimSpaces.contains(space)) {
                                    victimSpaceWritesAfterKill.incrementAndGet();
                                }
                            }
                            n++;
                        }
                    } catch (Throwable e) {
                        loadFailures.add(e);
                    }
                },
                "routing-it-load");
        load.start();
        await().atMost(PATIENCE)
                .until(() -> totalAcknowledged() >= SPACES.size() * INSTANCES + 6 || !loadFailures.isEmpty());
        String lastBeforeKill = acknowledged.get(SPACES.get(0)).keySet().stream()
                .max(java.util.Comparator.comparingLong(seqs::get))
                .orElseThrow();
        victim.getApplicationContext().close();
        killed.set(true);
        aStandbyAnswersWhileTheClosedOwnersTasksHaveNotMoved(survivors, SPACES.get(0), lastBeforeKill);
        await().atMost(Duration.ofSeconds(90))
                .until(() -> afterKill.get() >= 12 && victimSpaceWritesAfterKill.get() >= 2 || !loadFailures.isEmpty());
        loading.set(false);
        load.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(loadFailures).isEmpty();
        assertThat(staleReads).as("reads after a returned write that missed it").isEmpty();

        // every acknowledged write through every survivor; every chain verifies with exactly those events
        awaitOneOwnerPerSpace(survivors);
        for (String space : SPACES) {
            Map<String, String> writes = acknowledged.get(space);
            for (EmbeddedServer reader : survivors) {
                for (Map.Entry<String, String> write : writes.entrySet()) {
                    HttpResponse<String> read =
                            readRetryingRebalance(reader, space, "/memories/" + write.getKey(), Map.of());
                    assertThat(read.statusCode()).as(space + " " + read.body()).isEqualTo(200);
                    assertThat(read.body()).contains(write.getValue());
                }
            }
            HttpResponse<String> verify = readRetryingRebalance(survivors.get(0), space, "/chain/verify", Map.of());
            assertThat(verify.statusCode()).as(verify.body()).isEqualTo(200);
            Map<?, ?> result = json.readValue(verify.body(), Map.class);
            assertThat(result.get("ok")).as(verify.body()).isEqualTo(true);
            assertThat(((Number) result.get("events")).intValue()).as(space).isEqualTo(writes.size());
        }
    }

    /**
     * Issue #12 item 1 (gRPC and MCP): a gRPC read and an MCP write through an instance whose views do not hold the
     * space come back with the owner's answer.
     */
    private void grpcAndMcpThroughANonOwnerAreAnsweredByTheOwner(List<EmbeddedServer> live, String space)
            throws Exception {
        EmbeddedServer via = nonOwner(live, space);
        String ownerId = "node" + ownerIndex(live, space);
        assertThat(ownerOf(via, space).kind()).isEqualTo(SpaceOwner.Kind.REMOTE);
        Map.Entry<String, String> written =
                acknowledged.get(space).entrySet().iterator().next();
        ManagedChannel channel = ManagedChannelBuilder.forAddress(
                        "localhost",
                        via.getApplicationContext()
                                .getBean(GrpcEmbeddedServer.class)
                                .getPort())
                .usePlaintext()
                .build();
        try {
            Metadata auth = new Metadata();
            auth.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + key);
            Memory read = MemoryServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(auth))
                    .withDeadlineAfter(30, TimeUnit.SECONDS)
                    .getMemory(GetMemoryRequest.newBuilder()
                            .setSpace(space)
                            .setId(written.getKey())
                            .build());
            assertThat(read.getContent()).isEqualTo(written.getValue());
        } finally {
            channel.shutdownNow();
        }

        String content = "mcp fact of " + space + " via a non-owner";
        String rpc = json.writeValueAsString(Map.of(
                "jsonrpc",
                "2.0",
                "id",
                1,
                "method",
                "tools/call",
                "params",
                Map.of(
                        "name",
                        "memory_commit",
                        "arguments",
                        Map.of(
                                "space",
                                space,
                                "content",
                                content,
                                "idempotency_key",
                                UUID.randomUUID().toString()))));
        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + via.getPort() + "/mcp"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(rpc))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue(RoutingHeaders.SERVED_BY)).contains(ownerId);
        Map<?, ?> result = (Map<?, ?>) json.readValue(answer.body(), Map.class).get("result");
        assertThat(result.get("isError")).as(answer.body()).isEqualTo(false);
        String text = (String) ((Map<?, ?>) ((List<?>) result.get("content")).get(0)).get("text");
        Map<?, ?> committed = json.readValue(text, Map.class);
        String id = (String) ((Map<?, ?>) committed.get("memory")).get("id");
        seqs.put(id, ((Number) committed.get("seq")).longValue());
        acknowledged.get(space).put(id, content);
        readBackOrFlagStale(via, space, id);
    }

    /**
     * Standby reads: the owner is closed but, under static membership, keeps its partitions until its session times
     * out; meanwhile a read of its space through a survivor (without {@code X-Memory-Min-Seq}, which a standby cannot
     * vouch for) is answered by a standby replica, which says so and how far it has applied the space, and shows the
     * caller's last write once its stores have caught up.
     */
    private void aStandbyAnswersWhileTheClosedOwnersTasksHaveNotMoved(
            List<EmbeddedServer> survivors, String space, String lastWrite) {
        String content = acknowledged.get(space).get(lastWrite);
        List<HttpResponse<String>> last = new ArrayList<>(1);
        await("a standby answer holding the last write to " + space)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    HttpResponse<String> read =
                            send(survivors.get(0), "GET", space, "/memories/" + lastWrite, null, Map.of());
                    last.clear();
                    last.add(read);
                    return read.statusCode() == 200 && read.body().contains(content);
                });
        HttpResponse<String> read = last.get(0);
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_FROM))
                .as("answered before the tasks moved")
                .contains(RoutingHeaders.STANDBY);
        assertThat(Long.parseLong(
                        read.headers().firstValue(RoutingHeaders.APPLIED_SEQ).orElseThrow()))
                .isGreaterThanOrEqualTo(seqs.get(lastWrite));
    }

    /** Posts until a 201 (retrying 503s and dropped connections, on the next instance, with the same key). */
    private String writeUntilAcknowledged(List<EmbeddedServer> via, int first, String space, String content) {
        String idempotencyKey = UUID.randomUUID().toString();
        AtomicInteger attempt = new AtomicInteger(first);
        String[] id = new String[1];
        await("a write to " + space)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    EmbeddedServer server = via.get(attempt.getAndIncrement() % via.size());
                    HttpResponse<String> created;
                    try {
                        created = send(
                                server,
                                "POST",
                                space,
                                "/memories",
                                json.writeValueAsString(Map.of("content", content)),
                                Map.of("Idempotency-Key", idempotencyKey));
                    } catch (IOException e) {
                        return false; // the instance went away mid-call: the same key makes the retry safe
                    }
                    if (created.statusCode() != 201) {
                        assertThat(created.statusCode())
                                .as("write to %s: %s", space, created.body())
                                .isEqualTo(503);
                        return false;
                    }
                    Map<?, ?> body = json.readValue(created.body(), Map.class);
                    id[0] = (String) ((Map<?, ?>) body.get("memory")).get("id");
                    seqs.put(id[0], ((Number) body.get("seq")).longValue());
                    return true;
                });
        acknowledged.computeIfAbsent(space, s -> new ConcurrentHashMap<>()).put(id[0], content);
        return id[0];
    }

    /**
     * A read right after the write returned, with the write's seq as {@code X-Memory-Min-Seq} (what a client that wants
     * read-your-writes through any instance sends; only the owner answers it): 503 may be retried, anything else must
     * show the write.
     */
    private void readBackOrFlagStale(EmbeddedServer reader, String space, String id) {
        HttpResponse<String> read = readRetryingRebalance(
                reader, space, "/memories/" + id, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seqs.get(id))));
        if (read.statusCode() != 200
                || !read.body().contains(acknowledged.get(space).get(id))) {
            staleReads.add(space + "/" + id + ": " + read.statusCode() + " " + read.body());
        }
    }

    /** A GET answered by an instance; only 503 (no instance can answer now) is retried. */
    private HttpResponse<String> readRetryingRebalance(
            EmbeddedServer reader, String space, String path, Map<String, String> headers) {
        List<HttpResponse<String>> last = new ArrayList<>(1);
        await("a read of " + space + path)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    HttpResponse<String> read = send(reader, "GET", space, path, null, headers);
                    last.clear();
                    last.add(read);
                    return read.statusCode() != 503;
                });
        return last.get(0);
    }

    private long totalAcknowledged() {
        return acknowledged.values().stream().mapToLong(Map::size).sum();
    }

    private static void awaitOneOwnerPerSpace(List<EmbeddedServer> live) {
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> SPACES.stream().allMatch(space -> ownerIndex(live, space) >= 0));
    }

    /** The index of the instance that owns the space, when every instance agrees on it; -1 otherwise. */
    private static int ownerIndex(List<EmbeddedServer> live, String space) {
        int local = -1;
        for (int i = 0; i < live.size(); i++) {
            SpaceOwner owner = ownerOf(live.get(i), space);
            if (owner.kind() == SpaceOwner.Kind.LOCAL) {
                if (local >= 0) {
                    return -1;
                }
                local = i;
            } else if (owner.kind() != SpaceOwner.Kind.REMOTE) {
                return -1;
            }
        }
        if (local < 0) {
            return -1;
        }
        int port = live.get(local).getPort();
        for (EmbeddedServer server : live) {
            SpaceOwner owner = ownerOf(server, space);
            if (owner.kind() == SpaceOwner.Kind.REMOTE && owner.port() != port) {
                return -1;
            }
        }
        return servers.indexOf(live.get(local));
    }

    private static SpaceOwner ownerOf(EmbeddedServer server, String space) {
        return server.getApplicationContext().getBean(MemoryBackend.class).ownerOf(space);
    }

    private static EmbeddedServer nonOwner(List<EmbeddedServer> live, String space) {
        return live.stream()
                .filter(s -> ownerOf(s, space).kind() != SpaceOwner.Kind.LOCAL)
                .findFirst()
                .orElseThrow();
    }

    private HttpResponse<String> send(
            EmbeddedServer server, String method, String space, String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + server.getPort() + "/v1/spaces/" + space + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
