package io.memorychain.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.contract.MemoryApiContract;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.micronaut.context.annotation.Property;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The REST contract over the real HTTP stack (routing, JSON binding, error handlers, write path) with the real
 * sequencer and projection on TopologyTestDriver ({@link TopologyBackend}) instead of a broker.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "memory.write-timeout", value = "500ms")
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "memory.auth.bootstrap", value = "false")
@Property(name = "memory.core.space-caps", value = MemoryApiContract.CORE_REFINE_SPACE + "=200:refine")
@Property(name = "memory.proposals.space-review-modes", value = MemoryApiContract.MANUAL_REVIEW_SPACE + "=manual")
@Property(name = "memory.proposals.proposer-review-modes", value = MemoryApiContract.AUTO_PROPOSER + "=auto_commit")
@Property(name = "memory.proposals.trusted-proposers", value = MemoryApiContract.AUTO_PROPOSER)
class MemoryApiHttpTest extends MemoryApiContract {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Inject
    TopologyBackend chain;

    @Inject
    ApiKeys apiKeys;

    @Override
    protected ApiKeys apiKeys() {
        return apiKeys;
    }

    @Override
    protected HttpClient client() {
        return client;
    }

    @Override
    protected JsonMapper json() {
        return json;
    }

    @Override
    protected long publishedRequests() {
        return chain.published().size();
    }

    @Override
    protected MemoryOutcome publishDirectly(MemoryRequest request) {
        return chain.publish(request).join();
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsDownWithTheFailureNamedWhileAStoreCannotWrite() {
        chain.streamFailureLog()
                .record(
                        "projection",
                        new org.apache.kafka.streams.errors.StreamsException(
                                "Exception caught in process. taskId=0_1, processor=projection",
                                new org.apache.kafka.streams.errors.ProcessorStateException(
                                        "Error while putting key/value into store view-memories",
                                        new org.rocksdb.RocksDBException("Max allowed space was reached"))));
        try {
            Resp health = get("/health");
            assertThat(health.status()).as(health.raw()).isEqualTo(503);
            Map<String, Object> streams =
                    (Map<String, Object>) ((Map<String, Object>) health.json().get("details")).get("kafkaStreams");
            assertThat(streams).containsEntry("status", "DOWN");
            Map<String, Object> details = (Map<String, Object>) streams.get("details");
            assertThat(details).containsEntry("projection", "RUNNING");
            Map<String, Object> projection =
                    (Map<String, Object>) ((Map<String, Object>) details.get("failures")).get("projection");
            assertThat(projection)
                    .containsEntry("code", "STORAGE_FULL")
                    .containsEntry("store", "view-memories")
                    .containsEntry("error", "RocksDBException: Max allowed space was reached")
                    .containsEntry("count", 1);
        } finally {
            chain.forgetStreamFailures();
        }
        assertThat(get("/health").status())
                .as("UP once the failure is older than the window")
                .isEqualTo(200);
    }

    @Test
    void aBrokenChainGetsNoSignedCheckpoint() {
        String space = space();
        createId(space, "one");
        createId(space, "two");
        synchronized (chain) {
            chain.harness().chain().stream()
                    .filter(e -> e.getSpace().equals(space))
                    .findFirst()
                    .orElseThrow()
                    .setRequestId("forged"); // the stored hash no longer matches: BAD_HASH at seq 1
        }
        Resp r = get("/v1/spaces/" + space + "/chain/checkpoint");
        assertThat(r.status()).as(r.raw()).isEqualTo(409);
        assertThat(r.json()).containsEntry("code", "CHAIN_BROKEN");
        assertThat((String) r.json().get("message")).contains("broken at seq 1 (BAD_HASH)");
    }

    @Test
    void aWriteWithoutOutcomeInTimeIsATimeoutNamingTheRequestId() {
        String space = space();
        chain.stall = true;
        try {
            Resp r = send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "slow"))
                    .header("Idempotency-Key", "k-123"));
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.json()).containsEntry("code", "TIMEOUT").containsEntry("request_id", "k-123");
            assertThat((String) r.json().get("message")).contains("k-123", "retry with the same Idempotency-Key");
        } finally {
            chain.stall = false;
        }
    }

    @Test
    void colonActionsRouteToTheirOwnHandlers() {
        String space = space();
        String id = createId(space, "route me");
        assertThat(post(space, "/memories/" + id + ":pin", null).json())
                .extracting("memory")
                .extracting("pinned")
                .isEqualTo(true);
        assertThat(chain.published()
                        .get(chain.published().size() - 1)
                        .getOp()
                        .getClass()
                        .getSimpleName())
                .isEqualTo("SetFlag");
    }

    @Test
    void servesHealthOpenApiAndSwaggerUi() {
        assertThat(get("/health").json()).containsEntry("status", "UP");
        String spec = client.toBlocking().retrieve("/swagger/memory-chain-v1.yml");
        assertThat(spec)
                .contains(
                        "/v1/spaces/{space}/memories/{id}:restore",
                        "Authorization: Bearer",
                        "UNAUTHENTICATED",
                        "Idempotency-Key");
        assertThat(client.toBlocking().retrieve("/swagger-ui/index.html")).contains("swagger-ui");
        assertThat(client.toBlocking()
                        .retrieve(authorized(HttpRequest.GET("/prometheus").header("X-Actor", "admin:ops"))
                                .accept("text/plain")))
                .contains("jvm_memory_used_bytes");
    }

    @Test
    void aQueryACreateAndARefusedWriteShowUpInTheOpsCountsAndOnPrometheus() {
        String space = space();
        String id = createId(space, "Ana moved to Lisbon in May");
        assertThat(post(space, "/query", Map.of("query", "where does Ana live?", "top_k", 3))
                        .status())
                .isEqualTo(200);
        Resp refused = send(HttpRequest.PATCH(
                "/v1/spaces/" + space + "/memories/" + id, Map.of("content", "Porto", "expected_version", 7)));
        assertThat(refused.status()).as(refused.raw()).isEqualTo(409);

        Resp ops = get("/v1/spaces/" + space + "/ops?bucket=day");

        assertThat(ops.status()).as(ops.raw()).isEqualTo(200);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> buckets =
                (List<Map<String, Object>>) ops.json().get("buckets");
        assertThat(buckets)
                .as(ops.raw())
                .extracting(b -> b.get("node") + "/" + b.get("op") + "/" + b.get("status") + "=" + b.get("count"))
                .containsExactly("api/create/ok=1", "api/update/error=1", "hotpath/search/ok=1");
        assertThat(ops.json()).containsEntry("bucket", "day");
        assertThat(as("admin:ops", HttpRequest.GET("/v1/spaces/" + space + "/ops"))
                        .status())
                .as("metadata: admins may read it")
                .isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/ops?bucket=week").json()).containsEntry("code", "INVALID_ARGUMENT");
        assertThat(get("/v1/spaces/" + space + "/ops?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z")
                        .status())
                .isEqualTo(400);
        assertThat(client.toBlocking()
                        .retrieve(authorized(HttpRequest.GET("/prometheus").header("X-Actor", "admin:ops"))
                                .accept("text/plain")))
                .contains("memory_ops_total{node=\"hotpath\",op=\"search\",status=\"ok\"}");
    }

    // ---------------------------------------------------------------- Mechanic's Exception grants (§13)

    private static final String ADMIN = "admin:root";

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> items(Resp r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return (List<Map<String, Object>>) r.json().get("items");
    }

    private Resp asAdmin(io.micronaut.http.MutableHttpRequest<?> request) {
        return send(request.header("X-Actor", ADMIN));
    }

    private String grant(String space, Map<String, Object> body) {
        Resp r = asAdmin(HttpRequest.POST("/v1/spaces/" + space + "/grants", body));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        assertThat(r.json()).containsEntry("status", "pending").containsEntry("grantee", "root");
        return (String) r.json().get("id");
    }

    private static void assertGrantRequired(Resp r, String secret) {
        assertThat(r.status()).as(r.raw()).isEqualTo(403);
        assertThat(r.json()).containsEntry("code", "GRANT_REQUIRED");
        assertThat(r.raw()).doesNotContain(secret);
    }

    @Test
    void anAdminReadsContentOnlyUnderAConsentedUnexpiredGrantAndEachReadIsOnTheChain() {
        String space = space();
        String id = createId(space, "A secret recipe");
        String memory = "/v1/spaces/" + space + "/memories/" + id;
        assertGrantRequired(asAdmin(HttpRequest.GET(memory)), "secret recipe");

        String grant = grant(space, Map.of("purpose", "ticket 42: recall is broken", "duration_seconds", 600));
        assertGrantRequired(asAdmin(HttpRequest.GET(memory)), "secret recipe");
        Resp self = asAdmin(HttpRequest.POST("/v1/spaces/" + space + "/grants/" + grant + ":consent", Map.of()));
        assertThat(self.json()).as("no self-consent").containsEntry("code", "FORBIDDEN");

        Resp consented = post(space, "/grants/" + grant + ":consent", Map.of());
        assertThat(consented.status()).as(consented.raw()).isEqualTo(200);
        assertThat(consented.json())
                .containsEntry("status", "active")
                .containsEntry("consented_by", Map.of("type", "agent", "id", "api"));

        assertThat(asAdmin(HttpRequest.GET(memory)).json()).containsEntry("content", "A secret recipe");
        assertThat(items(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/memories"))))
                .extracting(m -> m.get("id"))
                .containsExactly(id);
        Resp query = asAdmin(HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "recipe")));
        assertThat(query.status()).as(query.raw()).isEqualTo(200);
        assertThat(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/export")).raw())
                .contains("A secret recipe");

        List<Map<String, Object>> reads = items(get("/v1/spaces/" + space + "/grants/" + grant + "/reads"));
        assertThat(reads)
                .extracting(r -> r.get("operation"))
                .containsExactly("get_memory", "list_memories", "query", "export");
        assertThat(reads).allSatisfy(r -> assertThat(r.get("actor")).isEqualTo(Map.of("type", "admin", "id", "root")));
        assertThat(reads.get(0).get("memory_ids")).isEqualTo(List.of(id));
        assertThat(items(get("/v1/spaces/" + space + "/audit?type=GrantedContentRead")))
                .hasSize(4);

        chain.harness().now = chain.harness().now.plus(Duration.ofMinutes(11));
        assertGrantRequired(asAdmin(HttpRequest.GET(memory)), "secret recipe");
        assertThat(items(get("/v1/spaces/" + space + "/grants")))
                .singleElement()
                .satisfies(g -> {
                    assertThat(g).containsEntry("status", "expired").containsEntry("reads", 4);
                });
        assertThat(items(get("/v1/spaces/" + space + "/grants/" + grant + "/reads")))
                .hasSize(4);
    }

    @Test
    void aRevokedGrantStopsReadsAtOnceAndAMemoryGrantCoversOnlyItsMemories() {
        String space = space();
        String id = createId(space, "Ana's phone is 555-0101");
        String other = createId(space, "Ana's address is 1 Main St");
        String grant =
                grant(space, Map.of("purpose", "ticket 43", "duration_seconds", 3600, "memory_ids", List.of(id)));
        assertThat(post(space, "/grants/" + grant + ":consent", Map.of()).status())
                .isEqualTo(200);

        assertThat(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id))
                        .json())
                .containsEntry("content", "Ana's phone is 555-0101");
        assertGrantRequired(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + other)), "1 Main St");
        assertGrantRequired(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/memories")), "1 Main St");
        assertGrantRequired(
                asAdmin(HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "Ana"))), "1 Main St");

        Resp revoked = post(space, "/grants/" + grant + ":revoke", Map.of("reason", "ticket closed"));
        assertThat(revoked.json()).containsEntry("status", "revoked").containsEntry("revoke_reason", "ticket closed");
        assertGrantRequired(asAdmin(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id)), "555-0101");
        assertThat(items(get("/v1/spaces/" + space + "/grants/" + grant + "/reads")))
                .hasSize(1);
    }

    @Test
    void refusesBadGrantRequestsWithCodes() {
        String space = space();
        String grants = "/v1/spaces/" + space + "/grants";
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> asAdmin(HttpRequest.POST(grants, Map.of("duration_seconds", 60))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> asAdmin(HttpRequest.POST(grants, Map.of("purpose", "x", "duration_seconds", 86_401))));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> post(space, "/grants", Map.of("purpose", "agents need none", "duration_seconds", 60)));
        assertThat(get(grants + "/g0000001zzzz").json()).containsEntry("code", "NOT_FOUND");
        assertThat(post(space, "/grants/g0000001zzzz:consent", Map.of()).json()).containsEntry("code", "NOT_FOUND");
    }
}
