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
}
