package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.contract.GrpcRestParityContract;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * REST and gRPC parity over the real HTTP and gRPC stacks of one application, with the real sequencer and projection
 * on TopologyTestDriver ({@link TopologyBackend}).
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "memory.write-timeout", value = "2s")
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "grpc.server.port", value = "0")
@Property(name = "memory.auth.bootstrap", value = "false")
class MemoryGrpcTest extends GrpcRestParityContract {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Inject
    ApiKeys apiKeys;

    @Inject
    GrpcEmbeddedServer grpcServer;

    @Inject
    ChangeStreams changeStreams;

    @Inject
    TopologyBackend chain;

    @Test
    void aWriteWithoutOutcomeInTimeIsUnavailableWithTheTimeoutCodeAndTheRequestIdToRetryWith() {
        String space = space();
        chain.stall = true;
        try {
            Failure timeout = failure(() -> grpc().createMemory(CreateMemoryRequest.newBuilder().setSpace(space).setContent("slow")
                    .setIdempotencyKey("k-grpc-123").build()));
            assertThat(timeout.status()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(timeout.code()).isEqualTo("TIMEOUT");
            assertThat(timeout.requestId()).isEqualTo("k-grpc-123");
            assertThat(timeout.description()).startsWith("TIMEOUT: ").contains("retry with the same Idempotency-Key (k-grpc-123)");
        } finally {
            chain.stall = false;
        }
    }

    @Override
    protected HttpClient http() {
        return client;
    }

    @Override
    protected JsonMapper json() {
        return json;
    }

    @Override
    protected int grpcPort() {
        return grpcServer.getPort();
    }

    @Override
    protected ApiKeys apiKeys() {
        return apiKeys;
    }

    @Override
    protected int openWatchStreams() {
        return changeStreams.openStreams();
    }

    @Override
    protected MemoryBackend backend() {
        return chain;
    }
}
