package io.memorychain.bench.load;

import static io.memorychain.bench.load.HarnessSupport.round;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.embeddings.PaddedBatchProbe;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Embedding throughput on this machine, in memories/s, for each model of {@code --models}: the memories the write
 * harness publishes (20-59 words), embedded as passages the way the embedder does (one model run per memory) with one
 * caller thread, with two concurrent callers (what two embedder stream threads would do), and with one caller and two
 * ONNX intra-op threads; the CPU time per memory of the single caller, from which the two-core ceiling follows (two
 * cores' worth of CPU seconds divided by it, whatever else the machine runs); and a padded batch through the model in
 * one run ({@link PaddedBatchProbe}), its speed and how many of its vectors differ, bit for bit, from the production
 * embedder's, also for batches of texts of one token length (no padding). Prints the load average before and after each
 * model, and writes JSON.
 *
 * <p>{@code java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.EmbeddingThroughput [--models
 * e5-small,minilm] [--memories 400] [--batch 16] [--out FILE]}
 */
public final class EmbeddingThroughput {

    private EmbeddingThroughput() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts =
                HarnessSupport.options(args, "[--models e5-small,minilm] [--memories 400] [--batch 16] [--out FILE]");
        List<String> models =
                List.of(opts.getOrDefault("models", "e5-small,minilm").split(","));
        int count = Integer.parseInt(opts.getOrDefault("memories", "400"));
        int batch = Integer.parseInt(opts.getOrDefault("batch", "16"));
        Path out = Path.of(opts.getOrDefault("out", "memory-bench/target/bench-embedding-throughput.json"));
        Random random = new Random(7);
        List<String> texts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            texts.add(LoadGenerator.sentence(random));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("started_at", Instant.now().toString());
        result.put("memories", count);
        result.put("cpus", Runtime.getRuntime().availableProcessors());
        for (String name : models) {
            result.put(name, measure(EmbeddingModel.fromConfigName(name.trim()), texts, batch));
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
        System.out.println("\n=== Embedding throughput ===");
        result.forEach((k, v) -> System.out.println(k + ": " + v));
        System.exit(0);
    }

    private static Map<String, Object> measure(EmbeddingModel model, List<String> texts, int batch) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("load_average_before", HarnessSupport.loadAverage());
        log("%s: %d memories, load average %s", model.configName(), texts.size(), m.get("load_average_before"));
        List<float[]> reference;
        try (OnnxSentenceEmbedder single = OnnxSentenceEmbedder.create(model)) {
            m.put("model_id", single.modelId());
            warmUp(single, texts);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            reference = new ArrayList<>(texts.size());
            for (String text : texts) {
                reference.add(single.embed(text));
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpuMs = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6 / texts.size();
            m.put("one_caller_per_second", round(texts.size() / secs));
            m.put("one_caller_cpu_ms_per_memory", round(cpuMs));
            m.put("two_core_ceiling_per_second", round(2 * 1000 / cpuMs));
            log(
                    "  one caller: %.1f memories/s, %.2f ms CPU per memory: two cores' ceiling %.0f memories/s",
                    texts.size() / secs, cpuMs, 2000 / cpuMs);
            m.put("two_callers_per_second", round(concurrently(single, texts, 2)));
            log("  two concurrent callers: %s memories/s", m.get("two_callers_per_second"));
        }
        try (OnnxSentenceEmbedder twoThreads =
                OnnxSentenceEmbedder.builder(model).intraOpThreads(2).build()) {
            warmUp(twoThreads, texts);
            long t0 = System.nanoTime();
            int differ = 0;
            for (int i = 0; i < texts.size(); i++) {
                differ += Arrays.equals(twoThreads.embed(texts.get(i)), reference.get(i)) ? 0 : 1;
            }
            m.put("one_caller_two_intra_op_threads_per_second", round(texts.size() / ((System.nanoTime() - t0) / 1e9)));
            m.put("two_intra_op_threads_vectors_differing", differ);
            log(
                    "  one caller, two intra-op threads: %s memories/s, %d vectors differ from one thread's",
                    m.get("one_caller_two_intra_op_threads_per_second"), differ);
        }
        if (model.pooling() == EmbeddingModel.Pooling.MEAN) {
            try (PaddedBatchProbe probe = new PaddedBatchProbe(model)) {
                probe.embedPadded(texts.subList(0, Math.min(texts.size(), batch)));
                long t0 = System.nanoTime();
                int differ = 0;
                double worst = 0;
                for (int from = 0; from < texts.size(); from += batch) {
                    List<float[]> vectors =
                            probe.embedPadded(texts.subList(from, Math.min(texts.size(), from + batch)));
                    for (int i = 0; i < vectors.size(); i++) {
                        float[] ref = reference.get(from + i);
                        if (!Arrays.equals(vectors.get(i), ref)) {
                            differ++;
                            worst = Math.max(worst, 1 - dot(vectors.get(i), ref));
                        }
                    }
                }
                m.put("padded_batch_" + batch + "_per_second", round(texts.size() / ((System.nanoTime() - t0) / 1e9)));
                m.put("padded_batch_vectors_differing", differ);
                m.put("padded_batch_max_one_minus_cosine", worst);
                log(
                        "  padded batches of %d: %s memories/s, %d of %d vectors differ (1 - cosine up to %.2e)",
                        batch, m.get("padded_batch_" + batch + "_per_second"), differ, texts.size(), worst);
                // batches of texts of one token length: no padding at all, only other texts in the tensor
                Map<Integer, List<Integer>> byLength = new java.util.TreeMap<>();
                for (int i = 0; i < texts.size(); i++) {
                    byLength.computeIfAbsent(probe.tokens(texts.get(i)), n -> new ArrayList<>())
                            .add(i);
                }
                int equalDiffer = 0;
                int equalBatched = 0;
                for (List<Integer> group : byLength.values()) {
                    if (group.size() < 2) {
                        continue;
                    }
                    List<float[]> vectors =
                            probe.embedPadded(group.stream().map(texts::get).toList());
                    for (int i = 0; i < group.size(); i++) {
                        equalBatched++;
                        equalDiffer += Arrays.equals(vectors.get(i), reference.get(group.get(i))) ? 0 : 1;
                    }
                }
                m.put("equal_length_batches_vectors", equalBatched);
                m.put("equal_length_batches_vectors_differing", equalDiffer);
                log("  batches of equal token length (no padding): %d of %d vectors differ", equalDiffer, equalBatched);
            }
        }
        m.put("load_average_after", HarnessSupport.loadAverage());
        log("  load average after: %s", m.get("load_average_after"));
        return m;
    }

    private static void warmUp(OnnxSentenceEmbedder embedder, List<String> texts) {
        for (int i = 0; i < Math.min(40, texts.size()); i++) {
            embedder.embed(texts.get(i));
        }
    }

    /** Memories/s of {@code callers} threads sharing the embedder, each taking the next text until none is left. */
    private static double concurrently(OnnxSentenceEmbedder embedder, List<String> texts, int callers)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            AtomicInteger next = new AtomicInteger();
            long t0 = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                running.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < texts.size(); i = next.getAndIncrement()) {
                        embedder.embed(texts.get(i));
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            return texts.size() / ((System.nanoTime() - t0) / 1e9);
        } finally {
            pool.shutdown();
        }
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    private static void log(String format, Object... args) {
        System.out.printf("[embeddings] " + format + "%n", args);
    }
}
