package io.memorychain.api.checkpoints;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Save and load latency of agent checkpoints over HTTP on the real service (its own embedded Kafka broker, content
 * encryption on): per thread, a save of a state of {@code --state-bytes} followed by a load of the thread's latest,
 * {@code --steps} times over {@code --threads} threads, after {@code --warmup} rounds. Prints p50/p95/p99/max of each.
 * Not a test: run by hand (memory-api/README.md "Agent checkpoints").
 *
 * <pre>
 * java -cp memory-api/target/test-classes:memory-api/target/classes:$(test classpath) \
 *      io.memorychain.api.checkpoints.CheckpointBench [--steps 500] [--warmup 100] [--threads 20] [--state-bytes 4096]
 * </pre>
 */
public final class CheckpointBench {

    private CheckpointBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int steps = Integer.parseInt(opts.getOrDefault("steps", "500"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "100"));
        int threads = Integer.parseInt(opts.getOrDefault("threads", "20"));
        int stateBytes = Integer.parseInt(opts.getOrDefault("state-bytes", "4096"));
        Path dataDir = Files.createTempDirectory("checkpoint-bench");
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "micronaut.server.port",
                -1,
                "grpc.server.port",
                0,
                "memory.data-dir",
                dataDir.toString(),
                "memory.retrieval.linker-enabled",
                false,
                "memory.refinement.trigger-enabled",
                false))) {
            EmbeddedServer server = context.getBean(EmbeddedServer.class);
            if (!server.isRunning()) {
                server.start();
            }
            String key = context.getBean(ApiKeys.class)
                    .issue(new Principal("bench", Role.AGENT, "bench", List.of("bench")), "bench")
                    .key()
                    .toString();
            HttpClient http = HttpClient.newHttpClient();
            String base = server.getURL().toString().replaceAll("/$", "") + "/v1/spaces/bench/checkpoints";
            String filler = "x".repeat(Math.max(0, stateBytes - 64));
            long[] saves = new long[steps];
            long[] loads = new long[steps];
            for (int i = -warmup; i < steps; i++) {
                String thread = "thread-" + Math.floorMod(i, threads);
                String body = "{\"thread_id\":\"" + thread + "\",\"user_id\":\"u\",\"state\":{\"step\":" + i
                        + ",\"messages\":\"" + filler + "\"},\"metadata\":{\"node_id\":\"n" + i + "\"}}";
                long t0 = System.nanoTime();
                HttpResponse<String> saved = http.send(
                        HttpRequest.newBuilder(URI.create(base))
                                .header("Authorization", "Bearer " + key)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                long t1 = System.nanoTime();
                HttpResponse<String> loaded = http.send(
                        HttpRequest.newBuilder(URI.create(base + "/latest?user_id=u&thread_id=" + thread))
                                .header("Authorization", "Bearer " + key)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                long t2 = System.nanoTime();
                if (saved.statusCode() != 201
                        || loaded.statusCode() != 200
                        || !loaded.body().contains("\"step\":" + i + ",")) {
                    throw new IllegalStateException("step " + i + ": save " + saved.statusCode() + ", load "
                            + loaded.statusCode() + " "
                            + loaded.body()
                                    .substring(0, Math.min(200, loaded.body().length())));
                }
                if (i >= 0) {
                    saves[i] = t1 - t0;
                    loads[i] = t2 - t1;
                }
            }
            System.out.printf(
                    "checkpoints over HTTP: %d steps over %d threads, state %d bytes, java %s, %d cores%n",
                    steps,
                    threads,
                    stateBytes,
                    System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors());
            print("save (answered after the view has it)", saves);
            print("load latest", loads);
        }
    }

    private static void print(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(
                "%-40s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  max %6.1f ms%n",
                what, ms(sorted, 0.50), ms(sorted, 0.95), ms(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
