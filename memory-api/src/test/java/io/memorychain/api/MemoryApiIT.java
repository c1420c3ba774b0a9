package io.memorychain.api;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.contract.MemoryApiContract;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.client.HttpClient;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The REST contract end to end: the Micronaut application (real {@code MemoryChainBackend}: registry, signing key,
 * {@code MemoryChainRuntime} with the sequencer and the projection, {@code MemoryPublisher}) against the shared
 * in-JVM Kafka broker, with topics and Streams application ids of its own.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemoryApiIT extends MemoryApiContract {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static EmbeddedServer server;
    private static HttpClient client;
    private static JsonMapper json;
    private static Admin admin;

    @BeforeAll
    static void startApplication() {
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "memory-api-it-" + UUID.randomUUID());
        server = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", -1,
                "memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers(),
                "memory.kafka.partitions", 3,
                "memory.kafka.replication-factor", 1,
                "memory.topic-prefix", PREFIX,
                "memory.data-dir", dataDir.toString(),
                "memory.write-timeout", "30s",
                "memory.startup-timeout", "90s",
                // the linker would publish link requests on its own, into the spaces whose chains these tests compare
                "memory.retrieval.linker-enabled", false));
        client = server.getApplicationContext().createBean(HttpClient.class, server.getURL());
        json = server.getApplicationContext().getBean(JsonMapper.class);
        admin = SharedKafka.admin();
    }

    @AfterAll
    static void stopApplication() {
        if (client != null) {
            client.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (server != null) {
            server.getApplicationContext().close();
        }
    }

    @Override
    protected ApiKeys apiKeys() {
        return server.getApplicationContext().getBean(ApiKeys.class);
    }

    @Override
    protected HttpClient client() {
        return client;
    }

    @Override
    protected JsonMapper json() {
        return json;
    }

    /** Through the application's own publisher to the real requests topic, past the REST layer. */
    @Override
    protected MemoryOutcome publishDirectly(MemoryRequest request) {
        try {
            return server.getApplicationContext().getBean(MemoryBackend.class).publish(request).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("No outcome for request " + request.getRequestId(), e);
        }
    }

    /** Sum of the requests topic's end offsets (uncommitted included): any publish moves it. */
    @Override
    protected long publishedRequests() {
        String topic = Topics.withPrefix(PREFIX).requests();
        try {
            TopicDescription description = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(info -> info.offset()).sum();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read the end offsets of " + topic, e);
        }
    }
}
