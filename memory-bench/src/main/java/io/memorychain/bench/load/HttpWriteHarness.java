package io.memorychain.bench.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a client waits for one acknowledged write, against a running service: sequential {@code POST /memories} (each
 * answered only once the memory is readable), then {@code --writers} concurrent writers; prints p50/p95/p99 of each,
 * the concurrent writers' acknowledged writes per second, and the median of every {@code Server-Timing} stage of the
 * sequential writes (check, sequence, commit, apply, read), so a slow write shows where it waited.
 *
 * <pre>
 * java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.HttpWriteHarness \
 *   --url http://localhost:8080 --key "$MEMORY_AGENT_KEY" --space assistant [--writes 200] [--writers 8]
 * </pre>
 */
public final class HttpWriteHarness {

    private static final String USAGE = "HttpWriteHarness --url URL --key KEY --space SPACE [--writes 200] "
            + "[--warmup 20] [--writers 8] [--concurrent-writes 800]";
    private static final Pattern STAGE = Pattern.compile("([a-z_]+);dur=([0-9.]+)");

    private HttpWriteHarness() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = HarnessSupport.options(args, USAGE);
        URI url = URI.create(o.get("url"));
        String key = o.get("key");
        String space = o.get("space");
        int writes = Integer.parseInt(o.getOrDefault("writes", "200"));
        int warmup = Integer.parseInt(o.getOrDefault("warmup", "20"));
        int writers = Integer.parseInt(o.getOrDefault("writers", "8"));
        int concurrentWrites = Integer.parseInt(o.getOrDefault("concurrent-writes", "800"));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String run = Long.toString(System.currentTimeMillis(), 36);
        Writer writer = new Writer(http, url.resolve("/v1/spaces/" + space + "/memories"), key, run);

        Map<String, List<Double>> stages = new TreeMap<>(); // the sequential writes' only
        for (int i = 0; i < warmup; i++) {
            writer.write("warm-up " + i, null);
        }
        long[] sequential = new long[writes];
        for (int i = 0; i < writes; i++) {
            sequential[i] = writer.write("sequential " + i, stages);
        }

        long[] concurrent = new long[concurrentWrites];
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            futures.add(pool.submit(() -> {
                for (long i = next.getAndIncrement(); i < concurrentWrites; i = next.getAndIncrement()) {
                    concurrent[(int) i] = writer.write("concurrent " + i, null);
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("sequential_write_ms", HarnessSupport.percentiles(sequential));
        report.put("sequential_stage_p50_ms", medians(stages));
        report.put("concurrent_write_ms", HarnessSupport.percentiles(concurrent));
        long acknowledged = Arrays.stream(concurrent).filter(v -> v > 0).count();
        report.put("concurrent_writers", writers);
        report.put("acknowledged_writes_per_s", HarnessSupport.round(acknowledged / seconds));
        report.put("failed_writes", writer.failed.get());
        report.put("load_average", HarnessSupport.loadAverage());
        System.out.println(report);
    }

    private static Map<String, Double> medians(Map<String, List<Double>> stages) {
        Map<String, Double> m = new LinkedHashMap<>();
        stages.forEach((stage, values) -> {
            double[] sorted =
                    values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            m.put(stage, HarnessSupport.round(sorted[sorted.length / 2]));
        });
        return m;
    }

    private record Writer(HttpClient http, URI memories, String key, String run, AtomicLong failed) {

        Writer(HttpClient http, URI memories, String key, String run) {
            this(http, memories, key, run, new AtomicLong());
        }

        /** One acknowledged write; its latency in nanoseconds, or 0 (counted as failed) when not answered 201. */
        long write(String label, Map<String, List<Double>> stages) throws Exception {
            String body = "{\"content\":\"Harness write " + run + " " + label
                    + ": the user mentioned a preference for quiet mornings\",\"category\":\"preferences\"}";
            HttpRequest request = HttpRequest.newBuilder(memories)
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            long t0 = System.nanoTime();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            long took = System.nanoTime() - t0;
            if (response.statusCode() != 201) {
                if (failed.incrementAndGet() <= 3) {
                    System.err.println("write answered " + response.statusCode() + ": " + response.body());
                }
                return 0;
            }
            if (stages != null) {
                response.headers().firstValue("Server-Timing").ifPresent(header -> {
                    Matcher m = STAGE.matcher(header);
                    while (m.find()) {
                        stages.computeIfAbsent(m.group(1), s -> new ArrayList<>())
                                .add(Double.parseDouble(m.group(2)));
                    }
                });
            }
            return took;
        }
    }
}
