package io.memorychain.bench.load;

import static io.memorychain.bench.load.HarnessSupport.freePort;
import static io.memorychain.bench.load.HarnessSupport.memory;
import static io.memorychain.bench.load.HarnessSupport.round;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memorychain.api.embedded.EmbeddedKafka;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.TopicSetup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Load harness for the write path on the embedded broker, measured against the machine's ceiling. Two phases, each
 * driven by a {@link LoadGenerator} in its own JVM (started here with this class path) that publishes requests through
 * {@link MemoryPublisher} with a bounded number in flight:
 *
 * <ol>
 *   <li><b>ceiling</b>: a no-op exactly-once pass-through ({@link CeilingTopology}: requests copied, bytes unchanged,
 *       to a sink topic) with the real applications' Streams configuration, the same partitions and the same requests,
 *       on the same broker; records/s copied;
 *   <li><b>throughput</b>: the real path, sequencer and projection ({@link MemoryChainRuntime}, no embedder): accepted
 *       requests/s answered (outcome) and queryable (the projection's applied seq has reached them), and their ratio to
 *       the ceiling;
 * </ol>
 *
 * then a <b>latency</b> phase at a load the system sustains (publish-to-queryable percentiles), chain verification
 * rates (every signature, and signed checkpoints) and memory use. Each phase warms up first in the same generator JVM,
 * in rounds of {@code --warmup} requests (half the measured ones by default), repeated while this JVM's JIT compilers
 * still used more than a tenth of a core, for at most {@code --max-warmup-seconds} (120): under this load they compile
 * the broker's, Streams' and the projection's code for a minute or more, a startup cost a running service has paid. The
 * load average ({@code /proc/loadavg}) is printed before and after each phase. Prints a summary and writes JSON.
 *
 * <p>{@code java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.LoadHarness [--requests N] [--warmup
 * N] [--max-warmup-seconds T] [--spaces S] [--in-flight W] [--latency-requests N] [--latency-in-flight W] [--partitions
 * P] [--generator-heap 512m] [--out FILE]}
 */
public final class LoadHarness {

    /** Prefix of the ceiling's topics: the pass-through reads {@code ceiling.memory.requests.v1}. */
    static final String CEILING_PREFIX = "ceiling.";
    /** The JIT's share of a core below which a warm-up round counts as settled. */
    static final double JIT_SETTLED = 0.1;

    private LoadHarness() {}

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        Map<String, String> opts = parse(args);
        int requests = Integer.parseInt(opts.getOrDefault("requests", "50000"));
        int spaces = Integer.parseInt(opts.getOrDefault("spaces", "100"));
        int inFlight = Integer.parseInt(opts.getOrDefault("in-flight", "4000"));
        int partitions = Integer.parseInt(opts.getOrDefault("partitions", "3"));
        int latencyRequests = Integer.parseInt(opts.getOrDefault("latency-requests", "20000"));
        int latencyInFlight = Integer.parseInt(opts.getOrDefault("latency-in-flight", "64"));
        String generatorHeap = opts.getOrDefault("generator-heap", "512m");
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", String.valueOf(requests / 2)));
        Duration maxWarmup = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("max-warmup-seconds", "120")));
        Path out = Path.of(opts.getOrDefault("out", "memory-bench/target/bench-write-path.json"));
        Path dir = Files.createTempDirectory("memory-bench");

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("started_at", Instant.now().toString());
        result.put("requests", requests);
        result.put("warmup_requests", warmup);
        result.put("spaces", spaces);
        result.put("in_flight", inFlight);
        result.put("latency_in_flight", latencyInFlight);
        result.put("partitions", partitions);
        result.put("cpus", Runtime.getRuntime().availableProcessors());
        result.put("load_average_at_start", HarnessSupport.loadAverage());

        try (EmbeddedKafka kafka = EmbeddedKafka.start(
                new EmbeddedKafka.Settings("127.0.0.1", freePort(), freePort(), dir.resolve("kafka")),
                Duration.ofSeconds(60))) {
            Topics topics = Topics.defaults();
            String bootstrap = kafka.bootstrapServers();
            Generator generator = new Generator(bootstrap, generatorHeap, spaces, maxWarmup);
            ChainKeys keys = ChainKeys.generate();
            try (KafkaTopicSchemaRegistry registry =
                    new KafkaTopicSchemaRegistry(bootstrap, topics.schemas(), (short) 1)) {
                Topics ceilingTopics = Topics.withPrefix(CEILING_PREFIX);
                TopicSetup.ensure(bootstrap, ceilingTopics, partitions, (short) 1);
                log(
                        "ceiling: no-op exactly-once pass-through, %d requests (+%d warm-up), %d in flight",
                        requests, warmup, inFlight);
                try (KafkaStreams ceiling = new KafkaStreams(
                        CeilingTopology.build(ceilingTopics),
                        StreamsProperties.streamsConfig(
                                bootstrap, dir.resolve("ceiling"), (short) 1, "bench-ceiling", "bench"))) {
                    startAndAwait(ceiling);
                    result.put("ceiling", generator.run("ceiling", CEILING_PREFIX, warmup, requests, inFlight, null));
                }
                result.put(
                        "ceiling_offsets",
                        offsets(bootstrap, true, published(result.get("ceiling"), warmup, requests)));
                try (MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        new MemoryChainRuntime.Settings(
                                bootstrap,
                                topics,
                                dir.resolve("streams"),
                                "bench",
                                partitions,
                                (short) 1,
                                WriteSettings.defaults()),
                        registry,
                        keys,
                        null,
                        Duration.ofSeconds(60))) {
                    log(
                            "throughput: sequencer + projection, %d requests (+%d warm-up), %d in flight",
                            requests, warmup, inFlight);
                    Map<String, AtomicLong> applied = new ConcurrentHashMap<>();
                    runtime.observeApplied((space, seq) -> applied.computeIfAbsent(space, s -> new AtomicLong())
                            .accumulateAndGet(seq, Math::max));
                    Map<String, Object> throughput = generator.run("chain", "", warmup, requests, inFlight, applied);
                    result.put("throughput", throughput);
                    result.put("chain_offsets", offsets(bootstrap, false, published(throughput, warmup, requests)));
                    log(
                            "latency: %d requests, %d in flight (a load the system sustains)",
                            latencyRequests, latencyInFlight);
                    result.put("latency", generator.run("chain", "", 0, latencyRequests, latencyInFlight, applied));
                    result.put("ratio", ratio(result));
                    verify(result, bootstrap, topics, registry, keys);
                    result.put("memory", memory());
                }
            }
        }
        result.put("load_average_at_end", HarnessSupport.loadAverage());
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
        log("results written to %s", out.toAbsolutePath());
        printSummary(result);
        System.exit(0);
    }

    /** Accepted requests/s of the real path (queryable, and answered) as a fraction of the ceiling's records/s. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> ratio(Map<String, Object> result) {
        Map<String, Object> ceiling = (Map<String, Object>) result.get("ceiling");
        Map<String, Object> throughput = (Map<String, Object>) result.get("throughput");
        double copied = ((Number) ceiling.get("copied_per_second")).doubleValue();
        double queryable = ((Number) throughput.get("accepted_per_second_queryable")).doubleValue();
        double answered = ((Number) throughput.get("accepted_per_second_outcome")).doubleValue();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ceiling_per_second", Math.round(copied));
        r.put("accepted_queryable_per_second", Math.round(queryable));
        r.put("accepted_queryable_to_ceiling", round(queryable / copied));
        r.put("accepted_answered_per_second", Math.round(answered));
        r.put("accepted_answered_to_ceiling", round(answered / copied));
        log(
                "ceiling %.0f records/s; accepted %.0f requests/s queryable (%.0f%% of the ceiling), %.0f answered (%.0f%%)",
                copied, queryable, 100 * queryable / copied, answered, 100 * answered / copied);
        return r;
    }

    /** Requests a phase published: its warm-up rounds and the measured ones. */
    private static long published(Object phase, int warmup, int requests) {
        return (long) warmup * ((Number) ((Map<?, ?>) phase).get("warmup_rounds")).intValue() + requests;
    }

    /**
     * What the broker took per request in a phase: the end offsets (records and transaction markers) of the ceiling's
     * topics, or of every other topic (requests, chain, outcomes, changelogs, ...), summed and divided by the phase's
     * requests. The real path writes many records per request where the ceiling writes one: much of the ratio.
     */
    private static Map<String, Object> offsets(String bootstrap, boolean ceiling, long requests)
            throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (TopicDescription d : admin.describeTopics(
                            admin.listTopics().names().get())
                    .allTopicNames()
                    .get()
                    .values()) {
                if (d.name().startsWith(CEILING_PREFIX) == ceiling && !d.isInternal()) {
                    d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
                }
            }
            Map<String, Long> byTopic = new TreeMap<>();
            admin.listOffsets(partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest())))
                    .all()
                    .get()
                    .forEach((tp, info) -> byTopic.merge(tp.topic(), info.offset(), Long::sum));
            long total = byTopic.values().stream().mapToLong(Long::longValue).sum();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("offsets_per_request", round((double) total / requests));
            m.put("by_topic", byTopic);
            log(
                    "  %s topics: %.1f offsets (records and transaction markers) per request",
                    ceiling ? "ceiling's" : "real path's", (double) total / requests);
            return m;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the topics' end offsets", e.getCause());
        }
    }

    private static void verify(
            Map<String, Object> result,
            String bootstrap,
            Topics topics,
            KafkaTopicSchemaRegistry registry,
            ChainKeys keys) {
        for (SignatureMode mode : List.of(SignatureMode.ALL, SignatureMode.checkpoints(1_000))) {
            KafkaChainReader reader = new KafkaChainReader(
                    Map.of("bootstrap.servers", bootstrap), topics.events(), registry, keys.publicRing(), mode);
            long t0 = System.nanoTime();
            Map<String, VerificationResult> verified = reader.verifyAll();
            double secs = (System.nanoTime() - t0) / 1e9;
            long events = verified.values().stream()
                    .mapToLong(VerificationResult::events)
                    .sum();
            boolean ok = verified.values().stream().allMatch(VerificationResult::ok);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("events", events);
            v.put("all_ok", ok);
            v.put("seconds", round(secs));
            v.put("events_per_second", Math.round(events / secs));
            result.put("verify_" + (mode.checksAll() ? "all_signatures" : "checkpoints_1000"), v);
            log("verified %d events (%s): %s, %.0f events/s", events, mode, ok ? "OK" : "BROKEN", events / secs);
        }
    }

    private static void startAndAwait(KafkaStreams app) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        app.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        app.start();
        if (!running.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the ceiling's pass-through did not reach RUNNING within 60 s");
        }
    }

    /** Starts {@link LoadGenerator} JVMs against the harness's broker and follows what they report. */
    private static final class Generator {

        private final String bootstrap;
        private final String heap;
        private final int spaces;
        private final Duration maxWarmup;

        Generator(String bootstrap, String heap, int spaces, Duration maxWarmup) {
            this.bootstrap = bootstrap;
            this.heap = heap;
            this.spaces = spaces;
            this.maxWarmup = maxWarmup;
        }

        /**
         * One phase: a generator JVM warms up with {@code warmup} requests, then publishes {@code n}. With
         * {@code applied} (the real path: the projection's applied seq per space) every accepted request is followed
         * until it is queryable. The warm-up repeats while this JVM's JIT compilers spent more than
         * {@link #JIT_SETTLED} of a core during the last round, until {@code maxWarmup} has passed.
         */
        Map<String, Object> run(
                String mode, String topicPrefix, int warmup, int n, int inFlight, Map<String, AtomicLong> applied)
                throws IOException, InterruptedException {
            String java = ProcessHandle.current()
                    .info()
                    .command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                            .toString());
            String tag = (applied == null ? "ceiling-" : "run-") + System.nanoTime() + "-";
            List<String> command = List.of(
                    java,
                    "-Xmx" + heap,
                    "-cp",
                    System.getProperty("java.class.path"),
                    LoadGenerator.class.getName(),
                    "--bootstrap",
                    bootstrap,
                    "--mode",
                    mode,
                    "--topic-prefix",
                    topicPrefix,
                    "--requests",
                    String.valueOf(n),
                    "--warmup",
                    String.valueOf(warmup),
                    "--spaces",
                    String.valueOf(spaces),
                    "--in-flight",
                    String.valueOf(inFlight),
                    "--tag",
                    tag);
            String loadBefore = HarnessSupport.loadAverage();
            log(
                    "  load average before: %s; generator JVM: %s ... %s",
                    loadBefore, java, String.join(" ", command.subList(4, command.size())));
            LoadVisibility visibility = applied == null ? null : new LoadVisibility(applied, n);
            Jit jit = new Jit();
            int rounds = 0;
            long warmupStarted = System.nanoTime();
            double jitShare = 0;
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            Map<String, Object> reported = null;
            long startMicros = 0;
            try (BufferedReader lines = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                    Writer control = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (!line.startsWith(LoadGenerator.TAG)) {
                        System.out.println("[generator] " + line);
                        continue;
                    }
                    String[] f = line.substring(LoadGenerator.TAG.length()).split(" ", 2);
                    switch (f[0]) {
                        case "ACK" -> {
                            if (visibility != null) {
                                visibility.add(f[1]);
                            }
                        }
                        case "WARMED" -> {
                            if (visibility != null) {
                                visibility.awaitWarmup();
                            }
                            rounds++;
                            jitShare = jit.shareSinceLast();
                            boolean again =
                                    jitShare > JIT_SETTLED && System.nanoTime() - warmupStarted < maxWarmup.toNanos();
                            log(
                                    "  warm-up round %d: JIT %.0f%% of a core; %s (load average %s)",
                                    rounds,
                                    100 * jitShare,
                                    again ? "again" : "warmed up",
                                    HarnessSupport.loadAverage());
                            control.write(again ? "MORE\n" : "GO\n");
                            control.flush();
                        }
                        case "START" -> {
                            startMicros = Long.parseLong(f[1]);
                            jit.shareSinceLast();
                        }
                        case "RESULT" ->
                            reported = new ObjectMapper()
                                    .readValue(f[1], new TypeReference<LinkedHashMap<String, Object>>() {});
                        default -> System.out.println("[generator] " + line);
                    }
                }
            } finally {
                if (!process.waitFor(1, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                }
            }
            if (process.exitValue() != 0 || reported == null) {
                throw new IllegalStateException("the load generator failed (exit " + process.exitValue() + ")");
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("load_average_before", loadBefore);
            m.put("warmup_rounds", rounds);
            m.put("jit_core_share_last_warmup_round", round(jitShare));
            m.put("jit_core_share_measured", round(jit.shareSinceLast()));
            m.put("generator", reported);
            if (visibility != null) {
                long accepted = visibility.awaitMeasured();
                double secs = (visibility.lastVisibleMicros() - startMicros) / 1e6;
                m.put("accepted", accepted);
                m.put("seconds_to_queryable", round(secs));
                m.put("accepted_per_second_queryable", Math.round(accepted / secs));
                m.put("accepted_per_second_outcome", reported.get("accepted_per_second_outcome"));
                m.put("publish_to_queryable_ms", visibility.percentiles());
                visibility.stop();
                log(
                        "  %,d accepted in %.1f s: %,.0f accepted req/s queryable (%s answered); queryable p50 %s ms p99"
                                + " %s ms",
                        accepted,
                        secs,
                        accepted / secs,
                        reported.get("accepted_per_second_outcome"),
                        ((Map<?, ?>) m.get("publish_to_queryable_ms")).get("p50"),
                        ((Map<?, ?>) m.get("publish_to_queryable_ms")).get("p99"));
            } else {
                m.put("copied_per_second", reported.get("copied_per_second"));
                log(
                        "  %,d requests copied in %s s: %s records/s",
                        n, reported.get("seconds"), reported.get("copied_per_second"));
            }
            m.put("load_average_after", HarnessSupport.loadAverage());
            log("  load average after: %s", m.get("load_average_after"));
            return m;
        }
    }

    /** This JVM's JIT compile time per wall time between two calls, in cores. */
    private static final class Jit {

        private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        private long lastCompileMs = compiler.getTotalCompilationTime();
        private long lastNanos = System.nanoTime();

        double shareSinceLast() {
            long compileMs = compiler.getTotalCompilationTime();
            long nanos = System.nanoTime();
            double share = (compileMs - lastCompileMs) / ((nanos - lastNanos) / 1e6);
            lastCompileMs = compileMs;
            lastNanos = nanos;
            return share;
        }
    }

    private static void printSummary(Map<String, Object> r) {
        System.out.println("\n=== Memory Chain write-path benchmark ===");
        r.forEach((k, v) -> System.out.println(k + ": " + v));
    }

    private static Map<String, String> parse(String[] args) {
        return HarnessSupport.options(
                args,
                "[--requests N] [--warmup N] [--max-warmup-seconds T] [--spaces S]"
                        + " [--in-flight W] [--latency-requests N]"
                        + " [--latency-in-flight W] [--partitions P] [--generator-heap 512m] [--out FILE]");
    }

    private static void log(String format, Object... args) {
        System.out.printf("[bench] " + format + "%n", args);
    }
}
