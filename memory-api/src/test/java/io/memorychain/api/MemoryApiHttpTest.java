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
    void aBrokenChainGetsNoSignedCheckpoint() {
        String space = space();
        createId(space, "one");
        createId(space, "two");
        synchronized (chain) {
            chain.harness().chain().stream().filter(e -> e.getSpace().equals(space)).findFirst().orElseThrow()
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
            Resp r = send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "slow")).header("Idempotency-Key", "k-123"));
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
        assertThat(post(space, "/memories/" + id + ":pin", null).json()).extracting("memory").extracting("pinned").isEqualTo(true);
        assertThat(chain.published().get(chain.published().size() - 1).getOp().getClass().getSimpleName()).isEqualTo("SetFlag");
    }

    @Test
    void servesHealthOpenApiAndSwaggerUi() {
        assertThat(get("/health").json()).containsEntry("status", "UP");
        String spec = client.toBlocking().retrieve("/swagger/memory-chain-v1.yml");
        assertThat(spec).contains("/v1/spaces/{space}/memories/{id}:restore", "Authorization: Bearer", "UNAUTHENTICATED", "Idempotency-Key");
        assertThat(client.toBlocking().retrieve("/swagger-ui/index.html")).contains("swagger-ui");
        assertThat(client.toBlocking().retrieve(HttpRequest.GET("/prometheus").accept("text/plain"))).contains("jvm_memory_used_bytes");
    }

    @Test
    void aQueryACreateAndARefusedWriteShowUpInTheOpsCountsAndOnPrometheus() {
        String space = space();
        String id = createId(space, "Ana moved to Lisbon in May");
        assertThat(post(space, "/query", Map.of("query", "where does Ana live?", "top_k", 3)).status()).isEqualTo(200);
        Resp refused = send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id,
                Map.of("content", "Porto", "expected_version", 7)));
        assertThat(refused.status()).as(refused.raw()).isEqualTo(409);

        Resp ops = get("/v1/spaces/" + space + "/ops?bucket=day");

        assertThat(ops.status()).as(ops.raw()).isEqualTo(200);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> buckets = (List<Map<String, Object>>) ops.json().get("buckets");
        assertThat(buckets).as(ops.raw()).extracting(b -> b.get("node") + "/" + b.get("op") + "/" + b.get("status")
                + "=" + b.get("count")).containsExactly("api/create/ok=1", "api/update/error=1", "hotpath/search/ok=1");
        assertThat(ops.json()).containsEntry("bucket", "day");
        assertThat(as("admin:ops", HttpRequest.GET("/v1/spaces/" + space + "/ops")).status())
                .as("metadata: admins may read it").isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/ops?bucket=week").json()).containsEntry("code", "INVALID_ARGUMENT");
        assertThat(get("/v1/spaces/" + space + "/ops?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z").status())
                .isEqualTo(400);
        assertThat(client.toBlocking().retrieve(HttpRequest.GET("/prometheus").accept("text/plain")))
                .contains("memory_ops_total{node=\"hotpath\",op=\"search\",status=\"ok\"}");
    }
}
