package io.memorychain.api.grpc;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.contract.GrpcRestParityContract;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.http.client.HttpClient;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * REST and gRPC parity end to end: the Micronaut application with the real backend (registry, signing key, sequencer
 * and projection in Kafka Streams, publisher) on the shared in-JVM Kafka broker, with topics and application ids of
 * its own; gRPC calls over a real channel to the application's gRPC port.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemoryGrpcIT extends GrpcRestParityContract {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeAll
    static void startApplication() {
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "memory-grpc-it-" + UUID.randomUUID());
        server = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", -1,
                "grpc.server.port", 0,
                "memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers(),
                "memory.kafka.partitions", 3,
                "memory.kafka.replication-factor", 1,
                "memory.topic-prefix", PREFIX,
                "memory.data-dir", dataDir.toString(),
                "memory.write-timeout", "30s",
                "memory.startup-timeout", "90s",
                // the linker would add link events of its own to the chains these tests compare
                "memory.retrieval.linker-enabled", false));
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
}
