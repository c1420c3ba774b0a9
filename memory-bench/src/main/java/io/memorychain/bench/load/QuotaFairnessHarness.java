package io.memorychain.bench.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fairness between keys under quotas, against a running service: a calm key queries its space alone (idle), then again
 * while a flooding key in another space sends {@code --flood-factor} times its quota; prints the calm key's latency
 * both times and what the flooding key was answered. The service must give the flooding key a quota (e.g.
 * {@code -Dmemory.quotas.keys.<name>.requests-per-second=20}).
 *
 * <pre>
 * java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.QuotaFairnessHarness \
 *   --url http://localhost:8080 --calm-key KEY --calm-space a --flood-key KEY --flood-space b --flood-quota 20
 * </pre>
 */
public final class QuotaFairnessHarness {

    private static final String USAGE = "QuotaFairnessHarness --url URL --calm-key K --calm-space S --flood-key K "
            + "--flood-space S --flood-quota N [--flood-factor 5] [--queries 300]";

    private QuotaFairnessHarness() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = HarnessSupport.options(args, USAGE);
        URI url = URI.create(o.get("url"));
        int queries = Integer.parseInt(o.getOrDefault("queries", "300"));
        double floodRate =
                Double.parseDouble(o.get("flood-quota")) * Double.parseDouble(o.getOrDefault("flood-factor", "5"));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest calm = HttpRequest.newBuilder(url.resolve("/v1/spaces/" + o.get("calm-space") + "/query"))
                .header("Authorization", "Bearer " + o.get("calm-key"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"what does the user like to drink\"}"))
                .build();
        HttpRequest flood = HttpRequest.newBuilder(
                        url.resolve("/v1/spaces/" + o.get("flood-space") + "/memories?limit=20"))
                .header("Authorization", "Bearer " + o.get("flood-key"))
                .GET()
                .build();

        Map<String, Object> report = new LinkedHashMap<>();
        run(http, calm, queries / 5); // warm-up
        report.put("calm_idle_ms", HarnessSupport.percentiles(run(http, calm, queries)));

        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicLong served = new AtomicLong();
        AtomicLong limited = new AtomicLong();
        AtomicLong other = new AtomicLong();
        ExecutorService floodPool = Executors.newFixedThreadPool(4);
        long periodNanos = (long) (1e9 / floodRate);
        long start = System.nanoTime();
        for (int t = 0; t < 4; t++) {
            int offset = t;
            floodPool.submit(() -> {
                for (long i = offset; flooding.get(); i += 4) {
                    long due = start + i * periodNanos;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait); // pacing the open-loop flood, not waiting for a result
                    }
                    int status = http.send(flood, HttpResponse.BodyHandlers.discarding())
                            .statusCode();
                    (status == 200 ? served : status == 429 ? limited : other).incrementAndGet();
                }
                return null;
            });
        }
        long[] underFlood = run(http, calm, queries);
        flooding.set(false);
        floodPool.shutdown();
        floodPool.awaitTermination(30, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - start) / 1e9;
        report.put("calm_under_flood_ms", HarnessSupport.percentiles(underFlood));
        report.put("flood_sent_per_s", HarnessSupport.round((served.get() + limited.get() + other.get()) / seconds));
        report.put("flood_served_per_s", HarnessSupport.round(served.get() / seconds));
        report.put("flood_429", limited.get());
        report.put("flood_other", other.get());
        report.put("load_average", HarnessSupport.loadAverage());
        System.out.println(report);
    }

    /** Sequential calls; each one's latency in nanoseconds (0 for a call that did not answer 200). */
    private static long[] run(HttpClient http, HttpRequest request, int n) throws Exception {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            int status =
                    http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            nanos[i] = status == 200 ? System.nanoTime() - t0 : 0;
        }
        return nanos;
    }
}
