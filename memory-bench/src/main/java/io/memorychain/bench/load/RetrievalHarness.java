package io.memorychain.bench.load;

import static io.memorychain.bench.load.HarnessSupport.freePort;
import static io.memorychain.bench.load.HarnessSupport.memory;
import static io.memorychain.bench.load.HarnessSupport.percentiles;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memorychain.api.embedded.EmbeddedKafka;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.retrieval.AccessRecorder;
import io.memorychain.projector.retrieval.ContextAssembler;
import io.memorychain.projector.retrieval.ContextRequest;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.view.MemoryViews;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * End-to-end read-path benchmark on the embedded broker: writes {@code --memories} memories to one space through the
 * real chain (sequencer, embedder with the real model, projection and its search index), waits until all are embedded,
 * then measures {@code memory.query} (query embedding, index search, views, rerank, budget packing) and context
 * assembly over many distinct natural-language queries, one caller thread. Prints the figures and writes JSON.
 *
 * <p>{@code java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.RetrievalHarness [--memories N]
 * [--queries Q] [--warm-up-seconds S] [--model minilm|bge-small|e5-small] [--write-intra-op-threads T] [--out FILE]
 * [--data-dir DIR] [--quiet-load L --quiet-wait-minutes M]}
 *
 * <p>{@code --data-dir} keeps the broker's and the Streams applications' data in DIR (default: a new temporary folder)
 * and records what was written there ({@value #WRITTEN}); a later run with the same DIR, memories and model restarts on
 * that data (the chain, the views and the embeddings are reused; the search index is rebuilt from the views on
 * assignment, as a service restart does) and measures without writing again. {@code --quiet-load L} waits, at most M
 * minutes, until the machine's one-minute load average is under L before the queries, so that a write phase run beside
 * other work can be measured on a quiet machine; the load averages are printed either way.
 *
 * <p>{@code --write-intra-op-threads 2} gives the pipeline's embedder (the one that embeds the written memories) two
 * ONNX intra-op threads, so that one space's serial embedding uses both cores while the memories are written: its
 * vectors are byte-identical to one thread's (EmbeddingModelsTest), so the index is the same; queries are still
 * embedded by an embedder with the default single thread, as a service embeds them. Besides the end-to-end figures the
 * harness times the stages of a query one by one (query embedding, index search, candidate reads, thread neighbours,
 * neighbours' stored embeddings) and records the load average.
 */
public final class RetrievalHarness {

    private static final String SPACE = "bench-retrieval";
    private static final String[] SUBJECTS = {
        "The user",
        "Ana",
        "The Atlas team",
        "Our biggest customer",
        "The CFO",
        "The mobile app",
        "The billing service",
        "Dana's sister",
        "The research group",
        "The support desk"
    };
    private static final String[] VERBS = {
        "prefers",
        "decided on",
        "complained about",
        "asked for",
        "scheduled",
        "postponed",
        "is allergic to",
        "migrated to",
        "reported a bug in",
        "wants to learn"
    };
    private static final String[] OBJECTS = {
        "dark mode in every editor",
        "PostgreSQL 16 for the ledger",
        "weekly demos on Thursdays",
        "the Lisbon offsite in May",
        "peanuts and shellfish",
        "Kotlin coroutines",
        "invoice INV-2024-117",
        "a refund for order 88121",
        "the VPN that drops at 18:00",
        "window seats",
        "trunk-based development",
        "the Q3 pricing change",
        "nightly backups to S3",
        "the Kubernetes upgrade",
        "a vegetarian menu",
        "Spanish lessons",
        "the on-call rotation",
        "SAML single sign-on with Okta"
    };
    private static final String[] QUERIES = {
        "what does the user like in editors?",
        "which database is the ledger on?",
        "when are demos?",
        "where is the offsite?",
        "any food allergies?",
        "what language is the team learning?",
        "INV-2024-117",
        "refund request status",
        "network problems in the evening",
        "seat preference on flights",
        "branching strategy",
        "pricing changes this quarter",
        "how are backups done?",
        "cluster upgrade plans",
        "dietary requirements for the dinner",
        "language courses",
        "who is on call?",
        "login provider",
        "what did the customer complain about?",
        "what did Ana decide?",
        "billing service bugs",
        "mobile app migration",
        "what did the CFO postpone?",
        "research group plans",
        "support desk requests"
    };

    private RetrievalHarness() {}

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        Map<String, String> opts = HarnessSupport.options(
                args,
                "[--memories N] [--queries Q] [--warm-up-seconds S]"
                        + " [--model minilm|bge-small|e5-small] [--write-intra-op-threads T] [--out FILE] [--data-dir DIR]"
                        + " [--quiet-load L --quiet-wait-minutes M]");
        EmbeddingModel model = EmbeddingModel.fromConfigName(
                opts.getOrDefault("model", opts.getOrDefault("embedding-model", EmbeddingModel.DEFAULT.configName())));
        int writeThreads = Integer.parseInt(opts.getOrDefault("write-intra-op-threads", "1"));
        int memories = Integer.parseInt(opts.getOrDefault("memories", "10000"));
        int queries = Integer.parseInt(opts.getOrDefault("queries", "500"));
        int warmUpSeconds = Integer.parseInt(opts.getOrDefault("warm-up-seconds", "30"));
        Path out = Path.of(opts.getOrDefault("out", "memory-bench/target/bench-retrieval.json"));
        Path dir = opts.containsKey("data-dir")
                ? Files.createDirectories(Path.of(opts.get("data-dir")))
                : Files.createTempDirectory("memory-bench-retrieval");
        Written written = Written.read(dir, memories, model.configName());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("started_at", Instant.now().toString());
        result.put("memories", memories);
        result.put("embedding_model", model.configName());
        result.put("write_intra_op_threads", writeThreads);
        List<String> load = new ArrayList<>();
        load.add("start " + HarnessSupport.loadAverage());
        try (OnnxSentenceEmbedder embedder = OnnxSentenceEmbedder.create(model);
                OnnxSentenceEmbedder writing = writeThreads == 1
                        ? null
                        : OnnxSentenceEmbedder.builder(model)
                                .intraOpThreads(writeThreads)
                                .build();
                EmbeddedKafka kafka = EmbeddedKafka.start(
                        new EmbeddedKafka.Settings(
                                "127.0.0.1",
                                written == null ? freePort() : written.brokerPort(),
                                written == null ? freePort() : written.controllerPort(),
                                dir.resolve("kafka")),
                        Duration.ofSeconds(60))) {
            Topics topics = Topics.defaults();
            try (KafkaTopicSchemaRegistry registry =
                            new KafkaTopicSchemaRegistry(kafka.bootstrapServers(), topics.schemas(), (short) 1);
                    MemoryChainRuntime runtime = MemoryChainRuntime.start(
                            new MemoryChainRuntime.Settings(
                                    kafka.bootstrapServers(),
                                    topics,
                                    dir.resolve("streams"),
                                    "bench",
                                    3,
                                    (short) 1,
                                    WriteSettings.defaults()),
                            registry,
                            ChainKeys.generate(),
                            writing == null ? embedder : writing,
                            Duration.ofSeconds(60));
                    MemoryPublisher publisher = new MemoryPublisher(kafka.bootstrapServers(), topics, registry)) {
                long t0 = System.nanoTime();
                String last = written == null ? write(publisher, memories) : written.lastId();
                MemoryViews views = runtime.views();
                while (!embedded(views, last)) {
                    TimeUnit.MILLISECONDS.sleep(200); // progress polling of a background pipeline, not a test wait
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                if (written == null) {
                    new Written(
                                    memories,
                                    model.configName(),
                                    last,
                                    kafka.settings().brokerPort(),
                                    kafka.settings().controllerPort())
                            .write(dir);
                    result.put("write_and_embed_seconds", Math.round(seconds));
                    result.put("write_and_embed_per_second", Math.round(memories / seconds));
                    log("%d memories written and embedded in %.0f s", memories, seconds);
                    load.add("after the writes " + HarnessSupport.loadAverage());
                } else {
                    result.put("reused_data_dir", dir.toString());
                    result.put("restart_until_queryable_seconds", Math.round(seconds));
                    log("restarted on the %d memories of %s in %.0f s", memories, dir, seconds);
                }
                waitForQuiet(opts, load);

                QueryService service = new QueryService(
                        views,
                        embedder,
                        CategoryPolicy.unrestricted(),
                        DecayModel.standard(),
                        RankingWeights.DEFAULTS,
                        AccessRecorder.NONE,
                        Clock.systemUTC());
                ContextAssembler contexts = new ContextAssembler(views, service, CategoryPolicy.unrestricted());
                Actor actor = Requests.actor(ActorType.AGENT, "bench");
                // warm-up: JIT, and the index's background merges of the segments the writes flushed
                long warmUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmUpSeconds);
                for (int i = 0; System.nanoTime() < warmUntil; i++) {
                    service.query(query(i), actor);
                    contexts.assemble(context(i), actor);
                }
                // the same queries without thread context and query-coverage keyword weight, interleaved with the
                // defaults so that both see the same load: what those two cost
                RankingWeights d = RankingWeights.DEFAULTS;
                QueryService plain = new QueryService(
                        views,
                        embedder,
                        CategoryPolicy.unrestricted(),
                        DecayModel.standard(),
                        d.withFusion(d.candidates(), d.keyword(), d.keyword(), 0, 0),
                        AccessRecorder.NONE,
                        Clock.systemUTC());
                long[] full = new long[queries];
                long[] bare = new long[queries];
                for (int i = 0; i < queries; i++) {
                    long t = System.nanoTime();
                    service.query(query(i), actor);
                    full[i] = System.nanoTime() - t;
                    t = System.nanoTime();
                    plain.query(query(queries + i), actor);
                    bare[i] = System.nanoTime() - t;
                }
                result.put("query_ms", percentiles(full));
                result.put("query_ms_without_thread_context_and_coverage", percentiles(bare));
                long[] embedOnly = measure(queries, i -> embedder.embedQuery(QUERIES[i % QUERIES.length] + " " + i));
                result.put("query_embedding_only_ms", percentiles(embedOnly));
                result.put("context_ms", percentiles(measure(queries, i -> contexts.assemble(context(i), actor))));
                QueryStages.measure(views, embedder, SPACE, queries, i -> query(i).query())
                        .forEach((stage, nanos) -> result.put("stage_" + stage + "_ms", percentiles(nanos)));
                load.add("after the queries " + HarnessSupport.loadAverage());
                result.put("load_average_1_5_15_min", load);
                result.put("memory", memory());
            }
        }
        System.out.println("\n=== Memory Chain read-path benchmark ===");
        result.forEach((k, v) -> System.out.println(k + ": " + v));
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
        System.exit(0);
    }

    /** Query i: one of the natural queries, made distinct so no cache of any layer answers it. */
    private static QueryRequest query(int i) {
        return new QueryRequest(
                SPACE,
                null,
                QUERIES[i % QUERIES.length] + " (" + i + ")",
                null,
                null,
                5,
                QueryRequest.Format.BULLETS,
                512,
                null,
                false,
                false,
                null,
                null);
    }

    private static ContextRequest context(int i) {
        return new ContextRequest(SPACE, null, QUERIES[i % QUERIES.length] + " (" + i + ")", null, null, 2000);
    }

    private static long[] measure(int n, java.util.function.IntConsumer call) {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            call.accept(i);
            nanos[i] = System.nanoTime() - t;
        }
        return nanos;
    }

    private static String write(MemoryPublisher publisher, int n) throws Exception {
        Random random = new Random(42);
        Actor actor = Requests.actor(ActorType.AGENT, "bench");
        Semaphore inFlight = new Semaphore(256);
        List<CompletableFuture<MemoryOutcome>> outcomes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String content = SUBJECTS[random.nextInt(SUBJECTS.length)] + " " + VERBS[random.nextInt(VERBS.length)] + " "
                    + OBJECTS[random.nextInt(OBJECTS.length)] + " (note " + i + ", " + random.nextInt(1000) + ")";
            inFlight.acquire();
            CompletableFuture<MemoryOutcome> f = publisher.publish(Requests.create(
                            SPACE,
                            actor,
                            CreateMemory.newBuilder()
                                    .setContent(content)
                                    .setImportance(1 + random.nextInt(5))
                                    // threads of 20, like conversation turns: every candidate's thread neighbours are
                                    // looked up
                                    .setThreadId("thread-" + i / 20)
                                    .build())
                    .build());
            f.whenComplete((o, e) -> inFlight.release());
            outcomes.add(f);
            if ((i + 1) % 10_000 == 0) {
                log("%d memories published", i + 1);
            }
        }
        MemoryOutcome last = outcomes.get(n - 1).get(120, TimeUnit.SECONDS);
        for (CompletableFuture<MemoryOutcome> f : outcomes) {
            if (!f.get(120, TimeUnit.SECONDS).getAccepted()) {
                throw new IllegalStateException(
                        "a write was rejected: " + f.get().getMessage());
            }
        }
        return last.getMemoryId();
    }

    /** Whether the memory's embedding is in the views; false while their store is closed by a rebalance. */
    private static boolean embedded(MemoryViews views, String id) {
        try {
            return views.embedding(SPACE, id).isPresent();
        } catch (InvalidStateStoreException e) {
            return false; // an overloaded machine can make the projection rebalance: its stores reopen after it
        }
    }

    /** The file in a data dir that says what a previous run wrote there. */
    static final String WRITTEN = "retrieval-harness-written.properties";

    /** What a previous run wrote to a data dir, and the ports its broker's metadata names. */
    record Written(int memories, String model, String lastId, int brokerPort, int controllerPort) {

        /** The record of {@code dir}, or null when nothing was written there yet; refuses another size or model. */
        static Written read(Path dir, int memories, String model) throws java.io.IOException {
            Path file = dir.resolve(WRITTEN);
            if (!Files.exists(file)) {
                return null;
            }
            java.util.Properties p = new java.util.Properties();
            try (var in = Files.newBufferedReader(file)) {
                p.load(in);
            }
            Written w = new Written(
                    Integer.parseInt(p.getProperty("memories")),
                    p.getProperty("model"),
                    p.getProperty("last-id"),
                    Integer.parseInt(p.getProperty("broker-port")),
                    Integer.parseInt(p.getProperty("controller-port")));
            if (w.memories() != memories || !w.model().equals(model)) {
                throw new IllegalArgumentException(dir + " holds " + w.memories() + " memories embedded with "
                        + w.model() + ", not " + memories + " with " + model + ": use another --data-dir");
            }
            return w;
        }

        void write(Path dir) throws java.io.IOException {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("memories", String.valueOf(memories));
            p.setProperty("model", model);
            p.setProperty("last-id", lastId);
            p.setProperty("broker-port", String.valueOf(brokerPort));
            p.setProperty("controller-port", String.valueOf(controllerPort));
            try (var out = Files.newBufferedWriter(dir.resolve(WRITTEN))) {
                p.store(out, "RetrievalHarness: what this data dir holds");
            }
        }
    }

    /** With {@code --quiet-load L}: waits (at most {@code --quiet-wait-minutes}) until the 1-min load is under L. */
    private static void waitForQuiet(Map<String, String> opts, List<String> load) throws InterruptedException {
        if (!opts.containsKey("quiet-load")) {
            return;
        }
        double limit = Double.parseDouble(opts.get("quiet-load"));
        long until = System.nanoTime()
                + TimeUnit.MINUTES.toNanos(Long.parseLong(opts.getOrDefault("quiet-wait-minutes", "60")));
        while (oneMinuteLoad() >= limit && System.nanoTime() < until) {
            log(
                    "waiting for a quiet machine: load average %s, want the 1-min figure under %.2f",
                    HarnessSupport.loadAverage(), limit);
            TimeUnit.SECONDS.sleep(30); // polling the machine's load, not a test wait
        }
        load.add("before the queries " + HarnessSupport.loadAverage());
    }

    private static double oneMinuteLoad() {
        String[] parts = HarnessSupport.loadAverage().split(" ");
        return parts.length < 3 ? Double.MAX_VALUE : Double.parseDouble(parts[0]);
    }

    private static void log(String format, Object... args) {
        System.err.printf("[retrieval-bench] " + format + "%n", args);
    }
}
