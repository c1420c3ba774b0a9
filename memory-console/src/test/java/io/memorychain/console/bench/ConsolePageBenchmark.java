package io.memorychain.console.bench;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.Requests;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The console's page benchmark (a main, not a test): the service on the embedded default (its own broker under
 * {@code --data-dir}), {@code --memories} memories loaded into one space through the backend's publisher (the sequencer
 * and projection as every write, many in flight, as the load harnesses publish), then each main console page fetched
 * over HTTP with a signed-in session, sequentially, and its p50 / p95 printed with the command, commit, JDK and machine
 * load. A data dir that already holds the memories is reused (no reload).
 *
 * <pre>
 * ./mvnw -B -o -q -pl memory-console test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xmx3g -cp memory-console/target/test-classes:memory-console/target/classes:$(cat memory-console/target/cp.txt) \
 *   io.memorychain.console.bench.ConsolePageBenchmark --memories 100000 --requests 200 --data-dir /tmp/console-bench
 * # --pages search,digest: only those pages (names as printed)
 * </pre>
 */
public final class ConsolePageBenchmark {

    private static final String SPACE = "bench-console";
    private static final Duration QUIET = Duration.ofSeconds(10);

    private ConsolePageBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        int memories = Integer.parseInt(opts.getOrDefault("memories", "100000"));
        int requests = Integer.parseInt(opts.getOrDefault("requests", "200"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "20"));
        int inFlight = Integer.parseInt(opts.getOrDefault("in-flight", "2000"));
        Path dir = Path.of(opts.getOrDefault("data-dir", "/tmp/console-bench"));
        Files.createDirectories(dir);
        log("load before: %s", load());
        try (EmbeddedServer server = ApplicationContext.run(
                EmbeddedServer.class,
                Map.of("micronaut.server.port", -1, "grpc.server.port", 0, "memory.data-dir", dir.toString()))) {
            ApplicationContext ctx = server.getApplicationContext();
            // SIGTERM or Ctrl-C stop the service cleanly (its broker too), so the data dir can be reused
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                if (ctx.isRunning()) {
                                    ctx.close();
                                }
                            },
                            "bench-shutdown"));
            MemoryBackend backend = ctx.getBean(MemoryBackend.class);
            String firstId = loadMemories(backend, memories, inFlight);
            awaitQuiet(backend.bootstrapServers());
            long head = backend.views().appliedSeq(SPACE);
            ApiKeys keys = ctx.getBean(ApiKeys.class);
            String user = keys.issue(new Principal("bench-user", Role.USER, "bench-user", List.of(SPACE)), "bench")
                    .key()
                    .toString();
            String admin = keys.issue(new Principal("bench-admin", Role.ADMIN, "bench-admin", List.of("*")), "bench")
                    .key()
                    .toString();
            String base = server.getURL().toString();
            HttpClient http = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
            String userCookie = signIn(http, base, user);
            String adminCookie = signIn(http, base, admin);
            Map<String, String> pages = new LinkedHashMap<>();
            String s = "/console/s/" + SPACE;
            pages.put("inbox", s + "/inbox");
            pages.put("memories", s + "/memories");
            pages.put("search", s + "/memories?q=travel+detail+during+session");
            pages.put("memory", s + "/memories/" + firstId);
            pages.put("audit", s + "/audit");
            pages.put("digest", s + "/audit/digest");
            pages.put("time machine", s + "/time");
            pages.put("time point", s + "/time?seq=" + head / 2);
            pages.put("health", s + "/health");
            log(
                    "memories in the space: %d (first %s); load: %s",
                    backend.views().counts(SPACE).total(), firstId, load());
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %6s %9s %9s %9s  %s%n",
                    "page",
                    "status",
                    "p50 ms",
                    "p95 ms",
                    "max ms",
                    "bytes");
            pages.put("admin", "/console/admin");
            pages.put("rollback plan", s + "/time/plan?seq=" + (head - 10));
            List<String> only =
                    opts.containsKey("pages") ? List.of(opts.get("pages").split(",")) : null;
            for (Map.Entry<String, String> page : pages.entrySet()) {
                if (only == null || only.contains(page.getKey())) {
                    String cookie =
                            page.getKey().equals("admin") || page.getKey().equals("rollback plan")
                                    ? adminCookie
                                    : userCookie;
                    measure(http, base, page.getKey(), page.getValue(), cookie, warmup, requests);
                }
            }
            if (only == null || only.contains("query api")) {
                measure(
                        http,
                        "query api",
                        HttpRequest.newBuilder(URI.create(base + "/v1/spaces/" + SPACE + "/query"))
                                .header("Authorization", "Bearer " + user)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"query\":\"what travel detail came up during the session?\",\"top_k\":10}"))
                                .build(),
                        warmup,
                        requests);
            }
            log("command: ConsolePageBenchmark %s", String.join(" ", args));
            log(
                    "commit: %s; JDK: %s %s; cores: %d; load after: %s",
                    commit(),
                    System.getProperty("java.vm.name"),
                    Runtime.version(),
                    Runtime.getRuntime().availableProcessors(),
                    load());
        }
        System.exit(0);
    }

    /** Publishes the memories not yet in the space; answers the id of its first memory. */
    private static String loadMemories(MemoryBackend backend, int n, int inFlight) throws Exception {
        long have = backend.views().counts(SPACE).total();
        AtomicReference<String> first = new AtomicReference<>();
        var actor = Requests.actor(ActorType.AGENT, "bench");
        Semaphore window = new Semaphore(inFlight);
        long start = System.nanoTime();
        List<String> categories = List.of("preferences", "work", "health", "travel", "family", "projects");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CompletableFuture<MemoryOutcome> last = null;
        for (long i = have; i < n; i++) {
            window.acquire();
            String content = "Benchmark memory " + i + ": the user mentioned " + categories.get((int) (i % 6))
                    + " detail number " + (i * 7919 % 100_003) + " during session " + (i / 20) + ".";
            last = backend.publish(Requests.create(
                            SPACE,
                            actor,
                            CreateMemory.newBuilder()
                                    .setContent(content)
                                    .setCategory(categories.get((int) (i % 6)))
                                    .setImportance(1 + (int) (i % 5))
                                    .build())
                    .build());
            long index = i;
            last.whenComplete((o, e) -> {
                window.release();
                if (e != null) {
                    failed.compareAndSet(null, e);
                } else if (index == 0) {
                    first.set(o.getMemoryId());
                }
            });
            if ((i + 1) % 10_000 == 0) {
                log("%d memories published (%.0f/s)", i + 1, (i + 1 - have) / ((System.nanoTime() - start) / 1e9));
            }
        }
        if (last != null) {
            MemoryOutcome outcome = last.get();
            backend.views().awaitApplied(SPACE, outcome.getSeq(), Duration.ofMinutes(30));
            log("%d memories loaded in %.1f s", n - have, (System.nanoTime() - start) / 1e9);
        }
        if (failed.get() != null) {
            throw new IllegalStateException("a write failed", failed.get());
        }
        if (first.get() == null) {
            first.set(backend.views().audit(SPACE, 0, 1).get(0).getMemoryIds().get(0));
        }
        return first.get();
    }

    /**
     * Waits until the background pipeline (embedder, linker, workers) has caught up: no consumer group's committed
     * offsets move for {@code QUIET}. Pages measured while it still works measure the catch-up, not the pages.
     */
    private static void awaitQuiet(String bootstrapServers) throws Exception {
        long start = System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            long last = -1;
            long stableSince = System.nanoTime();
            while (System.nanoTime() - stableSince < QUIET.toNanos()) {
                long sum = 0;
                for (GroupListing group : admin.listGroups(ListGroupsOptions.forConsumerGroups())
                        .all()
                        .get()) {
                    for (OffsetAndMetadata o : admin.listConsumerGroupOffsets(group.groupId())
                            .partitionsToOffsetAndMetadata()
                            .get()
                            .values()) {
                        sum += o == null ? 0 : o.offset();
                    }
                }
                if (sum != last) {
                    last = sum;
                    stableSince = System.nanoTime();
                    log("pipeline still working (committed offsets %d); load: %s", sum, load());
                }
                Thread.sleep(2_000); // polling the broker's committed offsets, not waiting for a result
            }
        }
        log("pipeline quiet after %.0f s; load: %s", (System.nanoTime() - start) / 1e9, load());
    }

    private static void measure(
            HttpClient http, String base, String name, String path, String cookie, int warmup, int requests)
            throws Exception {
        measure(
                http,
                name,
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Cookie", cookie)
                        .GET()
                        .build(),
                warmup,
                requests);
    }

    /** Times the request; prints p50 / p95 / max, and the median of each {@code Server-Timing} stage it carries. */
    private static void measure(HttpClient http, String name, HttpRequest request, int warmup, int requests)
            throws Exception {
        int status = 0;
        int bytes = 0;
        double[] ms = new double[requests];
        Map<String, List<Double>> stages = new LinkedHashMap<>();
        for (int i = 0; i < warmup + requests; i++) {
            long t = System.nanoTime();
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            double took = (System.nanoTime() - t) / 1e6;
            status = response.statusCode();
            bytes = response.body().length;
            if (i >= warmup) {
                ms[i - warmup] = took;
                for (String stage : response.headers()
                        .firstValue("Server-Timing")
                        .orElse("")
                        .split(",")) {
                    String[] parts = stage.strip().split(";dur=");
                    if (parts.length == 2) {
                        stages.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Double.parseDouble(parts[1]));
                    }
                }
            }
        }
        Arrays.sort(ms);
        StringBuilder timing = new StringBuilder();
        stages.forEach((stage, values) -> timing.append(String.format(
                Locale.ROOT,
                " %s %.1f",
                stage,
                values.stream().sorted().toList().get(values.size() / 2))));
        System.out.printf(
                Locale.ROOT,
                "%-14s %6d %9.2f %9.2f %9.2f  %d%s%n",
                name,
                status,
                ms[requests / 2],
                ms[(int) Math.ceil(requests * 0.95) - 1],
                ms[requests - 1],
                bytes,
                timing.isEmpty() ? "" : "  stages p50:" + timing);
    }

    private static String signIn(HttpClient http, String base, String key) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/console/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("key=" + key))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String set = r.headers()
                .firstValue("Set-Cookie")
                .orElseThrow(() -> new IllegalStateException("sign-in failed: " + r.statusCode() + " " + r.body()));
        return set.substring(0, set.indexOf(';'));
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            return new String(p.getInputStream().readAllBytes()).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            out.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return out;
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
