package io.memorychain.bench.load;

import static io.memorychain.bench.load.HarnessSupport.round;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memorychain.api.embedded.EmbeddedKafka;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Embedding throughput through the real pipeline (issue #12 item 6): the embedded broker and the sequencer, projection
 * and embedder applications ({@link MemoryChainRuntime}), {@code --memories} of the write harness's texts (20-59 words,
 * {@link LoadGenerator#sentence}) written to {@code --spaces} spaces over {@code --partitions} partitions. For each
 * stream-thread count of the embedder ({@code --threads}, {@code memory.embeddings.stream-threads}), on topics of its
 * own: the time from the first write until the last vector is on the embeddings topic (read_committed), memories
 * embedded per second over it, and the process's CPU time per memory (broker, sequencer, projection and embedder). The
 * writes are accepted long before the vectors follow, so the figure is the embedder's, with the rest of the pipeline
 * sharing the cores. First an untimed run of {@code --warm-up-memories} (default 1,000) through the same pipeline, so
 * that the JIT has compiled the broker's, Streams' and Lucene's paths before the timed runs.
 *
 * <pre>{@code
 * java -Xmx1g -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.EmbedderHarness \
 *     [--model e5-small|minilm|bge-small] [--memories 3000] [--spaces 8] [--partitions 2] [--threads 1,2]
 *     [--intra-op-threads 1] [--warm-up-memories 1000] [--out FILE]
 * }</pre>
 */
public final class EmbedderHarness {

    private EmbedderHarness() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = HarnessSupport.options(
                args,
                "[--model e5-small|minilm|bge-small] [--memories N]"
                        + " [--spaces S] [--partitions P] [--threads 1,2] [--intra-op-threads T] [--warm-up-memories N]"
                        + " [--out FILE]");
        EmbeddingModel model =
                EmbeddingModel.fromConfigName(opts.getOrDefault("model", EmbeddingModel.DEFAULT.configName()));
        int memories = Integer.parseInt(opts.getOrDefault("memories", "3000"));
        int spaces = Integer.parseInt(opts.getOrDefault("spaces", "8"));
        int partitions = Integer.parseInt(opts.getOrDefault("partitions", "2"));
        int intraOpThreads = Integer.parseInt(opts.getOrDefault("intra-op-threads", "1"));
        int warmUpMemories = Integer.parseInt(opts.getOrDefault("warm-up-memories", "1000"));
        List<Integer> threadCounts = new ArrayList<>();
        for (String t : opts.getOrDefault("threads", "1,2").split(",")) {
            threadCounts.add(Integer.parseInt(t.trim()));
        }
        Path out = Path.of(opts.getOrDefault("out", "memory-bench/target/bench-embedder.json"));
        Path dir = Files.createTempDirectory("memory-bench-embedder");

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("started_at", Instant.now().toString());
        result.put("model", model.configName());
        result.put("memories", memories);
        result.put("spaces", spaces);
        result.put("partitions", partitions);
        result.put("intra_op_threads", intraOpThreads);
        result.put("cpus", Runtime.getRuntime().availableProcessors());
        try (OnnxSentenceEmbedder embedder = OnnxSentenceEmbedder.builder(model)
                        .intraOpThreads(intraOpThreads)
                        .build();
                EmbeddedKafka kafka = EmbeddedKafka.start(
                        new EmbeddedKafka.Settings(
                                "127.0.0.1",
                                HarnessSupport.freePort(),
                                HarnessSupport.freePort(),
                                dir.resolve("kafka")),
                        Duration.ofSeconds(60))) {
            log(
                    "%s: %d memories, %d spaces, %d partitions, intra-op threads %d; warming up with %d memories",
                    embedder.modelId(), memories, spaces, partitions, intraOpThreads, warmUpMemories);
            if (warmUpMemories > 0) {
                result.put(
                        "warm_up",
                        run(
                                kafka,
                                dir,
                                embedder,
                                threadCounts.get(threadCounts.size() - 1),
                                warmUpMemories,
                                spaces,
                                partitions));
            }
            for (int threads : threadCounts) {
                result.put("threads_" + threads, run(kafka, dir, embedder, threads, memories, spaces, partitions));
            }
        }
        result.put("memory", HarnessSupport.memory());
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(
                out,
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(result));
        System.out.println("\n=== Embedding through the pipeline ===");
        result.forEach((k, v) -> System.out.println(k + ": " + v));
    }

    private static Map<String, Object> run(
            EmbeddedKafka kafka,
            Path dir,
            OnnxSentenceEmbedder embedder,
            int threads,
            int memories,
            int spaces,
            int partitions)
            throws Exception {
        String prefix = "t" + threads + "-" + System.nanoTime() + ".";
        Topics topics = Topics.withPrefix(prefix);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("load_average_before", HarnessSupport.loadAverage());
        try (KafkaTopicSchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(kafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        new MemoryChainRuntime.Settings(
                                kafka.bootstrapServers(),
                                topics,
                                dir.resolve(prefix + "streams"),
                                prefix + "bench",
                                partitions,
                                (short) 1,
                                WriteSettings.defaults()),
                        registry,
                        ChainKeys.generate(),
                        embedder,
                        null,
                        Duration.ofSeconds(60),
                        null,
                        threads);
                MemoryPublisher publisher = new MemoryPublisher(kafka.bootstrapServers(), topics, registry);
                KafkaConsumer<byte[], byte[]> vectors = vectorReader(kafka, topics, partitions)) {
            m.put(
                    "embedder_stream_threads",
                    runtime.embedderStreams().metadataForLocalThreads().size());
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            write(publisher, memories, spaces);
            double written = (System.nanoTime() - t0) / 1e9;
            log("threads %d: %d memories written and accepted in %.1f s", threads, memories, written);
            long seen = 0;
            long nextReport = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen < memories) {
                seen += vectors.poll(Duration.ofMillis(100)).count();
                if (System.nanoTime() > nextReport) {
                    log(
                            "threads %d: %d of %d vectors after %.0f s",
                            threads, seen, memories, (System.nanoTime() - t0) / 1e9);
                    nextReport += TimeUnit.SECONDS.toNanos(10);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
            m.put("write_seconds", round(written));
            m.put("write_to_last_vector_seconds", round(seconds));
            m.put("embedded_per_second", round(memories / seconds));
            m.put("process_cpu_ms_per_memory", round(cpuMs / memories));
            m.put("load_average_after", HarnessSupport.loadAverage());
            log(
                    "threads %d: %d memories embedded in %.1f s: %.1f memories/s, %.2f ms of process CPU each; load %s",
                    threads, memories, seconds, memories / seconds, cpuMs / memories, m.get("load_average_after"));
        }
        return m;
    }

    /** The harness's texts, round-robin over the spaces, at most 1,000 in flight; returns once all are accepted. */
    private static void write(MemoryPublisher publisher, int memories, int spaces) throws Exception {
        Random random = new Random(42);
        Actor actor = Requests.actor(ActorType.AGENT, "bench");
        Semaphore inFlight = new Semaphore(1000);
        List<CompletableFuture<MemoryOutcome>> outcomes = new ArrayList<>(memories);
        for (int i = 0; i < memories; i++) {
            inFlight.acquire();
            CompletableFuture<MemoryOutcome> f = publisher.publish(Requests.create(
                            "space-" + (i % spaces),
                            actor,
                            CreateMemory.newBuilder()
                                    .setContent(LoadGenerator.sentence(random))
                                    .build())
                    .build());
            f.whenComplete((o, e) -> inFlight.release());
            outcomes.add(f);
        }
        for (CompletableFuture<MemoryOutcome> f : outcomes) {
            MemoryOutcome o = f.get(120, TimeUnit.SECONDS);
            if (!o.getAccepted()) {
                throw new IllegalStateException("a write was rejected: " + o.getMessage());
            }
        }
    }

    /** A read_committed reader of the run's embeddings topic from its start. */
    private static KafkaConsumer<byte[], byte[]> vectorReader(EmbeddedKafka kafka, Topics topics, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            assigned.add(new TopicPartition(topics.embeddings(), p));
        }
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        return consumer;
    }

    private static void log(String format, Object... args) {
        System.out.printf("[embedder] " + format + "%n", args);
    }
}
