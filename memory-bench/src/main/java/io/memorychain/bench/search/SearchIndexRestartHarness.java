package io.memorychain.bench.search;

import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.IndexSource;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.search.SearchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a restart of a projection task costs for its search index (docs/architecture.md §6): the time from
 * {@link SearchIndexes#open} to the first answered HYBRID search, when the index must be rebuilt from the task's stores
 * and when the index committed at the last release is reused (checksums of every file, thread order reloaded from the
 * stores); then the projection of both to 1M memories (linear: a rebuild's rate, a reuse's reads). Kafka Streams' own
 * restart (RocksDB open, changelog catch-up) is not included.
 *
 * <p>Corpus: {@link SyntheticMemories} with random 384-d unit vectors; the "stores" are the generated entries, read
 * lazily (~20 us each, about a store read and decode: the reload pays it too, for the memories it needs).
 *
 * <pre>
 * java -Xmx2g -cp memory-bench/target/benchmarks.jar io.memorychain.bench.search.SearchIndexRestartHarness \
 *      [--docs 100000] [--reuses 3]
 * </pre>
 */
public final class SearchIndexRestartHarness {

    private static final int DIMS = OnnxSentenceEmbedder.DIMENSIONS;
    private static final long SEED = 7;
    private static final int PARTITION = 0;
    private static final com.sun.management.OperatingSystemMXBean PROCESS = (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private SearchIndexRestartHarness() {}

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        Map<String, String> opts = SearchLatencyHarness.parse(args);
        IndexSettings settings = IndexSettings.DEFAULTS.withDimensions(DIMS);
        int reuses = Integer.parseInt(opts.getOrDefault("reuses", "3"));
        System.out.printf(
                "java %s, %d cores, max heap %d MiB%n%s%n",
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                settings);
        for (String docs : opts.getOrDefault("docs", "100000").split(",")) {
            run(Integer.parseInt(docs.trim()), settings, reuses);
        }
        System.exit(0);
    }

    private static void run(int docs, IndexSettings settings, int reuses) throws Exception {
        SyntheticMemories data = new SyntheticMemories(DIMS);
        Path taskDir = Files.createTempDirectory("search-restart");
        Map<String, Long> position = Map.of("events", (long) docs - 1);
        IndexSource stores = new IndexSource() {
            @Override
            public void rebuild(MemoryIndex index) {
                index.rebuild(data.entries(docs, SEED));
            }

            @Override
            public void reload(MemoryIndex index) {
                Iterator<IndexEntry> entries = data.entries(docs, SEED);
                index.reloadThreads(new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return entries.hasNext();
                    }

                    @Override
                    public io.memorychain.avro.Memory next() {
                        return entries.next().memory();
                    }
                });
            }
        };
        try {
            System.out.printf("%n== %,d memories in one task%n", docs);
            String load = SearchLatencyHarness.loadAverage();
            Restart rebuilt = restart(settings, taskDir, position, stores, data);
            System.out.printf(
                    "restart with a rebuild: %.1f s to the first answer (%,.0f memories/s; process CPU "
                            + "%.1f s), release and commit %.1f s; load average %s before, %s after%n",
                    rebuilt.seconds,
                    docs / rebuilt.seconds,
                    rebuilt.cpuSeconds,
                    rebuilt.commitSeconds,
                    load,
                    SearchLatencyHarness.loadAverage());
            System.out.printf("index files %d MiB%n", SearchLatencyHarness.size(taskDir) >> 20);
            double best = Double.MAX_VALUE;
            double bestCpu = Double.MAX_VALUE;
            for (int i = 0; i < reuses; i++) {
                load = SearchLatencyHarness.loadAverage();
                Restart reused = restart(settings, taskDir, position, stores, data);
                best = Math.min(best, reused.seconds);
                bestCpu = Math.min(bestCpu, reused.cpuSeconds);
                System.out.printf(
                        "restart with the index reused (rebuilds: %d): %.2f s to the first answer (process "
                                + "CPU %.2f s; same answer as the rebuilt index: %s); load average %s before, %s "
                                + "after%n",
                        reused.rebuilds,
                        reused.seconds,
                        reused.cpuSeconds,
                        reused.answer.equals(rebuilt.answer),
                        load,
                        SearchLatencyHarness.loadAverage());
            }
            double perMillion = 1_000_000.0 / docs;
            System.out.printf(
                    "projected to 1M memories: rebuild %.0f s (CPU %.0f s), reuse %.1f s (CPU %.1f s; best "
                            + "reuse x %.0f)%n",
                    rebuilt.seconds * perMillion,
                    rebuilt.cpuSeconds * perMillion,
                    best * perMillion,
                    bestCpu * perMillion,
                    perMillion);
        } finally {
            SearchLatencyHarness.delete(taskDir);
        }
    }

    private record Restart(
            double seconds, double cpuSeconds, double commitSeconds, List<String> answer, long rebuilds) {}

    /** One task start: open (reuse or rebuild), answer one HYBRID search, release (commit). */
    private static Restart restart(
            IndexSettings settings,
            Path taskDir,
            Map<String, Long> position,
            IndexSource stores,
            SyntheticMemories data) {
        try (SearchIndexes indexes = SearchIndexes.onDisk(settings, "bench-model")) {
            long t0 = System.nanoTime();
            long cpu0 = PROCESS.getProcessCpuTime();
            MemoryIndex index = indexes.open(PARTITION, taskDir, position, stores);
            List<String> answer = index
                    .search(SearchRequest.builder(SyntheticMemories.SPACE)
                            .text("ka ri to")
                            .vector(data.unitVector(new SplittableRandom(99)))
                            .topK(10)
                            .build())
                    .stream()
                    .map(Hit::id)
                    .toList();
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (PROCESS.getProcessCpuTime() - cpu0) / 1e9;
            long t1 = System.nanoTime();
            indexes.release(PARTITION);
            return new Restart(seconds, cpuSeconds, (System.nanoTime() - t1) / 1e9, answer, indexes.rebuilds());
        }
    }
}
