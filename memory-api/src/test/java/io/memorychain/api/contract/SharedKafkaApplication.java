package io.memorychain.api.contract;

import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * The whole application (real {@code MemoryChainBackend}: registry, signing key, sequencer and projection in Kafka
 * Streams, publisher; HTTP and gRPC servers on free ports) on the shared in-JVM broker, with topics and Streams
 * application ids of its own, for the contracts' integration runs.
 */
public final class SharedKafkaApplication {

    private SharedKafkaApplication() {
    }

    /**
     * @param prefix topic and application-id prefix ({@link SharedKafka#uniquePrefix()})
     * @param name   names the data directory under java.io.tmpdir
     */
    public static EmbeddedServer start(String prefix, String name) {
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), name + "-" + UUID.randomUUID());
        return ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", -1,
                "grpc.server.port", 0,
                "memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers(),
                "memory.kafka.partitions", 3,
                "memory.kafka.replication-factor", 1,
                "memory.topic-prefix", prefix,
                "memory.data-dir", dataDir.toString(),
                "memory.write-timeout", "30s",
                "memory.startup-timeout", "90s",
                // the linker would publish link requests on its own, into the spaces whose chains these tests compare
                "memory.retrieval.linker-enabled", false));
    }
}
