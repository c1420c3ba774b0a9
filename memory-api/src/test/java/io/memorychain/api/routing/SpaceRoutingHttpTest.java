package io.memorychain.api.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeyStore;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.Memory;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.WriteResult;
import io.memorychain.api.topology.TopologyBackend;
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
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routing over the real HTTP stack (docs/architecture.md §19): two service instances, each with the real topologies on
 * TopologyTestDriver, the "router" told that the "owner" owns the space (the interactive-query decision itself is
 * {@code SpaceOwnersTest}); what travels, what comes back, and the 503s instead of stale answers.
 */
class SpaceRoutingHttpTest {

    private static EmbeddedServer owner;
    private static EmbeddedServer router;
    private static TopologyBackend ownerChain;
    private static TopologyBackend routerChain;
    private static JsonMapper json;
    private static String key;
    private final HttpClient http = HttpClient.newHttpClient();
    private String space;

    @BeforeAll
    static void start() {
        owner = start("owner");
        router = start("router");
        ownerChain = owner.getApplicationContext().getBean(TopologyBackend.class);
        routerChain = router.getApplicationContext().getBean(TopologyBackend.class);
        json = owner.getApplicationContext().getBean(JsonMapper.class);
        ApiKeys.Issued issued = owner.getApplicationContext()
                .getBean(ApiKeys.class)
                .issue(new Principal("ana-bot", Role.AGENT, "ana", List.of("*")), "test");
        router.getApplicationContext()
                .getBean(ApiKeyStore.class)
                .save(issued.record()); // one key store for all instances, as memory.api-keys.v1 is
        key = issued.key().toString();
        routerChain.advertised = URI.create("http://localhost:" + router.getPort());
        ownerChain.advertised = URI.create("http://localhost:" + owner.getPort());
    }

    private static EmbeddedServer start(String instanceId) {
        return ApplicationContext.run(
                EmbeddedServer.class,
                Map.of(
                        "micronaut.server.port",
                        -1,
                        "grpc.server.port",
                        0,
                        "memory.auth.bootstrap",
                        false,
                        "memory.write-timeout",
                        "500ms",
                        "memory.instance-id",
                        instanceId),
                TopologyBackend.ENV);
    }

    @AfterAll
    static void stop() {
        if (router != null) {
            router.getApplicationContext().close();
        }
        if (owner != null) {
            owner.getApplicationContext().close();
        }
    }

    @BeforeEach
    void routeTheSpaceToTheOwner() {
        space = "routed-" + UUID.randomUUID().toString().substring(0, 8);
        SpaceOwner remote = SpaceOwner.remote("localhost", owner.getPort(), 3);
        routerChain.owners = s -> s.equals(space) ? remote : SpaceOwner.UNROUTED;
        ownerChain.owners = s -> SpaceOwner.local(3);
        routerChain.standbyApplied = s -> OptionalLong.empty();
        ownerChain.standbyApplied = s -> OptionalLong.empty();
    }

    @Test
    void aWriteThroughANonOwnerIsAppliedByTheOwnerAndItsAnswerRelayed() throws Exception {
        HttpResponse<String> created = send(
                router,
                "POST",
                "/memories",
                "{\"content\":\"likes green tea\"}",
                Map.of("Idempotency-Key", "routed-1"));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
        assertThat(created.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(ownerChain.published())
                .anyMatch(r -> r.getSpace().equals(space)
                        && r.getRequestId().equals("routed-1")
                        && r.getActor().getId().equals("ana"));
        assertThat(routerChain.published()).noneMatch(r -> r.getSpace().equals(space));
        Map<?, ?> body = json.readValue(created.body(), Map.class);
        String id = (String) ((Map<?, ?>) body.get("memory")).get("id");

        HttpResponse<String> read = send(router, "GET", "/memories/" + id, null, Map.of());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains("likes green tea");
        assertThat(read.headers().firstValue("ETag")).contains("\"1\"");
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
    }

    @Test
    void aChangeStreamIsNotForwardedButRefusedNamingTheOwnerOrRebalancing() throws Exception {
        HttpResponse<String> elsewhere = send(router, "GET", "/changes", null, Map.of("Accept", "text/event-stream"));
        assertThat(elsewhere.statusCode()).as(elsewhere.body()).isEqualTo(421);
        assertThat(elsewhere.body()).contains("\"code\":\"NOT_OWNER\"").contains("localhost:" + owner.getPort());

        routerChain.owners = s -> SpaceOwner.unavailable(3, "partition 3 is moving");
        routerChain.standbyApplied = s -> OptionalLong.of(0);
        assertRebalancing(send(router, "GET", "/changes", null, Map.of("Accept", "text/event-stream")));
    }

    @Test
    void theOwnersErrorsComeBackUnchanged() throws Exception {
        HttpResponse<String> missing = send(router, "GET", "/memories/m000000000zzz?limit=1", null, Map.of());

        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
        assertThat(missing.body()).contains("\"code\":\"NOT_FOUND\"");
        assertThat(missing.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
    }

    @Test
    void aCallerTheRouterRefusesIsRefusedWithoutAHop() throws Exception {
        int before = ownerChain.published().size();
        HttpResponse<String> anonymous = http.send(
                HttpRequest.newBuilder(url(router, "/memories"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"x\"}"))
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("router");
        assertThat(ownerChain.published()).hasSize(before);
    }

    @Test
    void aForwardedCallForASpaceThisInstanceDoesNotOwnIsNotForwardedAgain() throws Exception {
        HttpResponse<String> again =
                send(router, "GET", "/memories", null, Map.of(RoutingHeaders.FORWARDED_BY, "elsewhere"));

        assertRebalancing(again);
        assertThat(again.body()).contains("elsewhere");
    }

    @Test
    void noOwnerDuringARebalanceIs503RebalancingNotAStaleRead() throws Exception {
        routerChain.owners = s -> SpaceOwner.unavailable(3, "partition 3 is restoring on this instance");

        assertRebalancing(send(router, "GET", "/memories", null, Map.of()));
        assertRebalancing(send(router, "POST", "/memories", "{\"content\":\"x\"}", Map.of()));
    }

    @Test
    void anUnreachableOwnerIs503Rebalancing() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        routerChain.owners = s -> SpaceOwner.remote("localhost", closedPort, 3);

        assertRebalancing(send(router, "GET", "/core", null, Map.of()));
    }

    @Test
    void theOwnerAnswersWithAMinSeqOnlyOnceItsViewsHaveAppliedIt() throws Exception {
        HttpResponse<String> created = send(owner, "POST", "/memories", "{\"content\":\"one\"}", Map.of());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long seq = ((Number) json.readValue(created.body(), Map.class).get("seq")).longValue();

        HttpResponse<String> caughtUp =
                send(router, "GET", "/memories", null, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seq)));
        assertThat(caughtUp.statusCode()).as(caughtUp.body()).isEqualTo(200);
        assertThat(caughtUp.body()).contains("\"one\"");

        HttpResponse<String> ahead =
                send(router, "GET", "/memories", null, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seq + 5)));
        assertThat(ahead.statusCode()).as(ahead.body()).isEqualTo(503);
        assertThat(ahead.body()).contains("\"code\":\"TIMEOUT\"");
        assertThat(ahead.headers().firstValue("Retry-After")).contains("1");

        HttpResponse<String> malformed = send(router, "GET", "/memories", null, Map.of(RoutingHeaders.MIN_SEQ, "-2"));
        assertThat(malformed.statusCode()).as(malformed.body()).isEqualTo(400);
        assertThat(malformed.body()).contains("\"code\":\"INVALID_ARGUMENT\"");
    }

    @Test
    void aReadTheOwnerCannotAnswerIsReadFromAStandbyHereAndSaysSoButNotOneWithAMinSeq() throws Exception {
        routerChain.owners = s -> SpaceOwner.UNROUTED; // the router owned the space when it was written
        HttpResponse<String> created = send(router, "POST", "/memories", "{\"content\":\"drinks oolong\"}", Map.of());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long seq = ((Number) json.readValue(created.body(), Map.class).get("seq")).longValue();
        String id =
                (String) ((Map<?, ?>) json.readValue(created.body(), Map.class).get("memory")).get("id");
        int down = closedPort();
        routerChain.owners = s -> SpaceOwner.remote("localhost", down, 3); // now owned elsewhere, down
        routerChain.standbyApplied = s -> OptionalLong.of(routerChain.appliedSeq(s));

        HttpResponse<String> read = send(router, "GET", "/memories/" + id, null, Map.of());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains("drinks oolong");
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_FROM)).contains(RoutingHeaders.STANDBY);
        assertThat(read.headers().firstValue(RoutingHeaders.APPLIED_SEQ)).contains(String.valueOf(seq));
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("router");

        // the standby's applied seq is the write's, but its stores catch up one by one: it cannot vouch for it
        HttpResponse<String> withMinSeq =
                send(router, "GET", "/memories/" + id, null, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seq)));
        assertRebalancing(withMinSeq);
        assertThat(withMinSeq.body()).contains(RoutingHeaders.MIN_SEQ + " " + seq);
        assertThat(withMinSeq.headers().firstValue(RoutingHeaders.SERVED_FROM)).isEmpty();

        HttpResponse<String> query = send(router, "POST", "/query", "{\"query\":\"oolong\"}", Map.of());
        assertRebalancing(query);
        assertThat(query.body()).contains("search index");
        assertRebalancing(send(router, "POST", "/memories", "{\"content\":\"x\"}", Map.of()));
    }

    @Test
    void anOwnerThatAnswersRebalancingLetsAStandbyHereAnswerAReadButNotAWrite() throws Exception {
        routerChain.owners = s -> SpaceOwner.UNROUTED;
        HttpResponse<String> created = send(router, "POST", "/memories", "{\"content\":\"swims\"}", Map.of());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long seq = ((Number) json.readValue(created.body(), Map.class).get("seq")).longValue();
        routerChain.owners = s -> SpaceOwner.remote("localhost", owner.getPort(), 3);
        routerChain.standbyApplied = s -> OptionalLong.of(routerChain.appliedSeq(s));
        ownerChain.owners = s -> SpaceOwner.unavailable(3, "partition 3 is restoring on this instance");

        HttpResponse<String> read = send(router, "GET", "/memories", null, Map.of());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains("swims");
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_FROM)).contains(RoutingHeaders.STANDBY);
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("router");
        assertRebalancing(send(router, "GET", "/memories", null, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seq))));

        HttpResponse<String> write = send(router, "POST", "/memories", "{\"content\":\"x\"}", Map.of());
        assertRebalancing(write);
        assertThat(write.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
    }

    @Test
    void aReadNobodyHereCanAnswerIsForwardedOnceToAStandbyElsewhere() throws Exception {
        HttpResponse<String> created = send(owner, "POST", "/memories", "{\"content\":\"reads at night\"}", Map.of());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long seq = ((Number) json.readValue(created.body(), Map.class).get("seq")).longValue();
        // the "owner" instance now only keeps a standby copy; the active task is moving
        ownerChain.owners = s -> SpaceOwner.unavailable(3, "partition 3 is moving");
        ownerChain.standbyApplied = s -> OptionalLong.of(ownerChain.appliedSeq(s));
        routerChain.owners = s -> SpaceOwner.unavailable(3, "partition 3 is moving")
                .withStandbys(List.of(new SpaceOwner.Endpoint("localhost", owner.getPort())));

        HttpResponse<String> read = send(router, "GET", "/memories", null, Map.of());

        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains("reads at night");
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
        assertThat(read.headers().firstValue(RoutingHeaders.SERVED_FROM)).contains(RoutingHeaders.STANDBY);
        assertThat(read.headers().firstValue(RoutingHeaders.APPLIED_SEQ)).contains(String.valueOf(seq));
        assertRebalancing(send(router, "GET", "/memories", null, Map.of(RoutingHeaders.MIN_SEQ, String.valueOf(seq))));
    }

    @Test
    void anMcpToolCallThroughANonOwnerIsForwardedWithTheCallersKeyAndTheOwnersAnswerRelayed() throws Exception {
        HttpResponse<String> answer =
                mcp(router, Map.of(), "memory_commit", Map.of("space", space, "content", "walks to work"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue(RoutingHeaders.SERVED_BY)).contains("owner");
        Map<?, ?> result = (Map<?, ?>) json.readValue(answer.body(), Map.class).get("result");
        assertThat(result.get("isError")).as(answer.body()).isEqualTo(false);
        assertThat(answer.body()).contains("walks to work");
        assertThat(ownerChain.published())
                .anyMatch(
                        r -> r.getSpace().equals(space) && r.getActor().getId().equals("ana"));
        assertThat(routerChain.published()).noneMatch(r -> r.getSpace().equals(space));
    }

    @Test
    void anMcpCallForwardedToAnInstanceThatNoLongerOwnsTheSpaceOrToAnUnreachableOwnerIsRebalancing() throws Exception {
        HttpResponse<String> again = mcp(
                router,
                Map.of(RoutingHeaders.FORWARDED_BY, "elsewhere"),
                "memory_recall",
                Map.of("space", space, "query", "x"));
        int down = closedPort();
        routerChain.owners = s -> SpaceOwner.remote("localhost", down, 3);
        HttpResponse<String> unreachable =
                mcp(router, Map.of(), "memory_commit", Map.of("space", space, "content", "x"));

        for (HttpResponse<String> refused : List.of(again, unreachable)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(200);
            assertThat(refused.body()).contains("\"isError\":true").contains("REBALANCING");
        }
        assertThat(again.body()).contains("elsewhere");
        assertThat(routerChain.published()).noneMatch(r -> r.getSpace().equals(space));
    }

    @Test
    void aGrpcCallThroughANonOwnerIsRelayedToTheOwnersGrpcAddressWithTheCallersKey() throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("localhost", grpcPort(router))
                .usePlaintext()
                .build();
        try {
            Metadata auth = new Metadata();
            auth.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + key);
            MemoryServiceGrpc.MemoryServiceBlockingStub stub = MemoryServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(auth));

            WriteResult created = stub.createMemory(CreateMemoryRequest.newBuilder()
                    .setSpace(space)
                    .setContent("cycles on sundays")
                    .build());
            Memory read = stub.getMemory(GetMemoryRequest.newBuilder()
                    .setSpace(space)
                    .setId(created.getMemory().getId())
                    .build());

            assertThat(read.getContent()).isEqualTo("cycles on sundays");
            assertThat(ownerChain.published())
                    .anyMatch(r ->
                            r.getSpace().equals(space) && r.getActor().getId().equals("ana"));
            assertThat(routerChain.published()).noneMatch(r -> r.getSpace().equals(space));

            Metadata hop = new Metadata();
            hop.put(Metadata.Key.of("x-memory-forwarded-by", Metadata.ASCII_STRING_MARSHALLER), "elsewhere");
            assertThatThrownBy(() -> stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(hop))
                            .getMemory(GetMemoryRequest.newBuilder()
                                    .setSpace(space)
                                    .setId(created.getMemory().getId())
                                    .build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                        assertThat(e.getStatus().getDescription()).contains("elsewhere");
                    });
        } finally {
            channel.shutdownNow();
        }
    }

    @Test
    void eachInstanceAdvertisesItsIdAndAddressesWithoutAKey() throws Exception {
        HttpResponse<String> instance = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + owner.getPort() + "/instance"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(instance.statusCode()).as(instance.body()).isEqualTo(200);
        Map<?, ?> body = json.readValue(instance.body(), Map.class);
        assertThat(body.get("instance_id")).isEqualTo("owner");
        assertThat(body.get("rest_url")).isEqualTo("http://localhost:" + owner.getPort());
        assertThat(body.get("grpc_address")).isEqualTo("localhost:" + grpcPort(owner));
    }

    @Test
    void aToolCalledInProcessForASpaceOwnedElsewhereIsRefusedNamingTheOwner() {
        io.memorychain.api.mcp.MemoryTools tools =
                router.getApplicationContext().getBean(io.memorychain.api.mcp.MemoryTools.class);
        Principal caller = new Principal("ana-bot", Role.AGENT, "ana", List.of("*"));

        assertThatThrownBy(() -> tools.call("memory_commit", caller, Map.of("space", space, "content", "x")))
                .isInstanceOfSatisfying(io.memorychain.api.error.ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("NOT_OWNER");
                    assertThat(e.status().getCode()).isEqualTo(421);
                    assertThat(e.getMessage()).contains("localhost:" + owner.getPort());
                });
        assertThat(routerChain.published()).noneMatch(r -> r.getSpace().equals(space));
    }

    private static int grpcPort(EmbeddedServer server) {
        return server.getApplicationContext().getBean(GrpcEmbeddedServer.class).getPort();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A JSON-RPC tools/call over MCP's HTTP transport. */
    private HttpResponse<String> mcp(
            EmbeddedServer server, Map<String, String> headers, String tool, Map<String, Object> arguments)
            throws IOException, InterruptedException {
        String body = json.writeValueAsString(Map.of(
                "jsonrpc",
                "2.0",
                "id",
                7,
                "method",
                "tools/call",
                "params",
                Map.of("name", tool, "arguments", arguments)));
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + server.getPort() + "/mcp"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRebalancing(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.body()).contains("\"code\":\"REBALANCING\"");
        assertThat(response.headers().firstValue("Retry-After")).contains("1");
    }

    private HttpResponse<String> send(
            EmbeddedServer server, String method, String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url(server, path))
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

    private URI url(EmbeddedServer server, String path) {
        return URI.create("http://localhost:" + server.getPort() + "/v1/spaces/" + space + path);
    }
}
