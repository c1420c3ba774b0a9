package io.memorychain.deploy.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service instance: memory-server's runnable jar, as deploy/compose runs it (its environment: the brokers,
 * replication factor 3, the shared registry, an instance id, an advertised URL, its own data directory with the shared
 * signing key and content master key), in its own namespace with JVM options near deploy/local/run.sh's small budget.
 */
final class MemoryInstance {

    static final int HTTP_PORT = 8080;

    private final Child process;
    private final String baseUrl;

    private MemoryInstance(Child process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /**
     * @param bootstrapKeys whether this instance issues the first API keys (one instance does; the key store is a
     *     shared topic)
     */
    static MemoryInstance create(
            Host host,
            Path jar,
            Path dataDir,
            String bootstrapServers,
            String registryUrl,
            boolean bootstrapKeys,
            String spaces) {
        String baseUrl = "http://" + host.address() + ":" + HTTP_PORT;
        Map<String, String> env = new LinkedHashMap<>();
        env.put("MEMORY_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("MEMORY_KAFKA_REPLICATION_FACTOR", "3");
        env.put("MEMORY_REGISTRY_URL", registryUrl);
        env.put("MEMORY_INSTANCE_ID", host.name());
        env.put("MEMORY_INSTANCE_ADVERTISED_URL", baseUrl);
        env.put("MEMORY_DATA_DIR", dataDir.toString());
        env.put("MEMORY_HTTP_PORT", String.valueOf(HTTP_PORT));
        env.put("MEMORY_GRPC_PORT", "9090");
        env.put("MEMORY_AUTH_BOOTSTRAP", String.valueOf(bootstrapKeys));
        env.put("MEMORY_AUTH_BOOTSTRAP_SPACES", spaces);
        env.put("MEMORY_STARTUP_TIMEOUT", "2m");
        // the load writes at most a few per second per client: no quota in the way
        env.put("MEMORY_QUOTAS_ENABLED", "false");
        // deploy/local/run.sh's budget: two instances, three brokers, a registry and a worker share two cores
        env.put("MEMORY_STREAMS_CACHE_MIB", "1");
        env.put("MEMORY_SEARCH_RAM_BUFFER_MIB", "8");
        env.put("MEMORY_ROCKSDB_BLOCK_CACHE_MIB", "16");
        env.put("MEMORY_ROCKSDB_MEMTABLE_MIB", "8");
        env.put("MEMORY_EMBEDDINGS_ARENA_ALLOCATOR", "false");
        env.put("MALLOC_ARENA_MAX", "1");
        env.put("DJL_CACHE_DIR", dataDir.resolve(".djl").toString());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms32m",
                "-Xmx512m",
                "-XX:MaxNewSize=32m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro",
                "-jar",
                jar.toString()));
        Child child = new Child(host.name(), host, command, env, dataDir.resolveSibling(host.name() + ".log"));
        return new MemoryInstance(child, baseUrl);
    }

    Child process() {
        return process;
    }

    String name() {
        return process.name();
    }

    String baseUrl() {
        return baseUrl;
    }

    /** {@code /health} as it answers now: status and body, or the error that kept it from answering. */
    HealthSample health(HttpClient http) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/health"))
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return new HealthSample(r.statusCode(), r.body());
        } catch (IOException e) {
            return new HealthSample(0, "no answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HealthSample(0, "interrupted");
        }
    }
}
