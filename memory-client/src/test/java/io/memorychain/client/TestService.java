package io.memorychain.client;

import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * For the client modules' ITs (memory-client's test-jar): the whole memory-api application on the shared in-JVM broker,
 * with its own topics and data directory (as memory-api's SharedKafkaApplication), and the API keys its first start
 * wrote to {@code data/keys/api-keys.env}.
 */
public final class TestService implements AutoCloseable {

    public final EmbeddedServer server;
    public final Path dataDir;
    public final String prefix;
    public final Map<String, String> keys;

    private TestService(EmbeddedServer server, Path dataDir, String prefix) {
        this.server = server;
        this.dataDir = dataDir;
        this.prefix = prefix;
        this.keys = readKeys(dataDir.resolve("keys").resolve("api-keys.env"));
    }

    /** A fresh service: new topics, new data directory; the agent key covers every space. */
    public static TestService start(String name) {
        return start(
                SharedKafka.uniquePrefix(),
                Path.of(System.getProperty("java.io.tmpdir"), name + "-" + UUID.randomUUID()));
    }

    /** The service on these topics and this data directory (a restart when they were used before). */
    public static TestService start(String prefix, Path dataDir) {
        Map<String, Object> props = new HashMap<>(Map.ofEntries(
                Map.entry("micronaut.server.port", -1),
                Map.entry("grpc.server.port", 0),
                Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                Map.entry("memory.kafka.partitions", 3),
                Map.entry("memory.embeddings.stream-threads", 1),
                Map.entry("memory.kafka.replication-factor", 1),
                Map.entry("memory.topic-prefix", prefix),
                Map.entry("memory.data-dir", dataDir.toString()),
                Map.entry("memory.write-timeout", "30s"),
                Map.entry("memory.startup-timeout", "90s"),
                Map.entry("memory.auth.bootstrap-spaces", "*"),
                Map.entry("memory.retrieval.linker-enabled", false),
                Map.entry("memory.refinement.trigger-enabled", false),
                // contradiction detection would add FlagContradiction requests of its own to the spaces the tests read
                Map.entry("memory.contradictions.detect", false)));
        return new TestService(ApplicationContext.run(EmbeddedServer.class, props), dataDir, prefix);
    }

    public String url() {
        return server.getURL().toString();
    }

    public String agentKey() {
        return keys.get("MEMORY_AGENT_KEY");
    }

    public String adminKey() {
        return keys.get("MEMORY_ADMIN_KEY");
    }

    public String userKey() {
        return keys.get("MEMORY_USER_KEY");
    }

    public MemoryChainClient client(String key) {
        return MemoryChainClient.builder(url(), key).build();
    }

    private static Map<String, String> readKeys(Path file) {
        try {
            Map<String, String> keys = new HashMap<>();
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (!line.startsWith("#") && eq > 0) {
                    keys.put(
                            line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.getApplicationContext().close();
    }
}
