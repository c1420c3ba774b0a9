package io.memorychain.api.grpc;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.changes.ChangeStreams;
import io.memorychain.api.contract.ChangeEventsContract;
import io.memorychain.api.contract.CheckpointGrpcContract;
import io.memorychain.api.contract.ContradictionParityContract;
import io.memorychain.api.contract.FeatureParityContract;
import io.memorychain.api.contract.GrpcRestParityContract;
import io.memorychain.api.contract.SharedKafkaApplication;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.http.client.HttpClient;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * REST, gRPC and MCP parity end to end: the Micronaut application with the real backend (registry, signing key,
 * sequencer and projection in Kafka Streams, publisher) on the shared in-JVM Kafka broker, with topics and application
 * ids of its own; gRPC calls over a real channel to the application's gRPC port, MCP calls to its /mcp.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemoryGrpcIT extends FeatureParityContract {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeAll
    static void startApplication() {
        server = SharedKafkaApplication.start(PREFIX, "memory-grpc-it");
        client = server.getApplicationContext().createBean(HttpClient.class, server.getURL());
    }

    @AfterAll
    static void stopApplication() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.getApplicationContext().close();
        }
    }

    @Override
    protected HttpClient http() {
        return client;
    }

    @Override
    protected JsonMapper json() {
        return server.getApplicationContext().getBean(JsonMapper.class);
    }

    @Override
    protected int grpcPort() {
        return server.getApplicationContext().getBean(GrpcEmbeddedServer.class).getPort();
    }

    @Override
    protected ApiKeys apiKeys() {
        return server.getApplicationContext().getBean(ApiKeys.class);
    }

    @Override
    protected int openWatchStreams() {
        return server.getApplicationContext().getBean(ChangeStreams.class).openStreams();
    }

    @Override
    protected MemoryBackend backend() {
        return server.getApplicationContext().getBean(MemoryBackend.class);
    }

    @Override
    protected String baseUrl() {
        return server.getURL().toString();
    }

    /** Agents' checkpoints over gRPC on this same application. */
    @Nested
    class Checkpoints extends CheckpointGrpcContract {

        @Override
        protected GrpcRestParityContract parity() {
            return MemoryGrpcIT.this;
        }
    }

    /** GET /changes (server-sent events) on this same application. */
    @Nested
    class ServerSentEvents extends ChangeEventsContract {

        @Override
        protected String restUrl() {
            return server.getURL().toString().replaceAll("/$", "");
        }

        @Override
        protected ApiKeys keys() {
            return apiKeys();
        }

        @Override
        protected int openChangeStreams(String space) {
            return server.getApplicationContext().getBean(ChangeStreams.class).openStreams(space);
        }
    }

    /** Contradictions over gRPC and MCP on this same application. */
    @Nested
    class Contradictions extends ContradictionParityContract {

        @Override
        protected FeatureParityContract parity() {
            return MemoryGrpcIT.this;
        }
    }
}
