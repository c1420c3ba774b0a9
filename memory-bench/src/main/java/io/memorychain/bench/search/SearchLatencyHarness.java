package io.memorychain.bench.search;

import com.sun.management.OperatingSystemMXBean;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.IndexStats;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * What one space of N memories costs, end to end: the rebuild after a task (re)assignment (memories/s), the heap the
 * index holds and the process RSS, and the latency of a {@code memory.query}-like search: embed the query text with the
 * real {@link OnnxSentenceEmbedder}, then a HYBRID top-10 search with that text and vector. Latencies are printed as
 * p50/p95/p99/max of individual queries, for embed + search and for the search alone.
 *
 * <p>Corpus: {@link SyntheticMemories} (generated text, random 384-d unit vectors: embedding 100k texts would take ~10
 * minutes); queries: the 50 {@link NaturalQueries}, cycled. The rebuild reads the generated entries lazily, as it would
 * scan the memories store (generating one costs ~20 us on the feeding thread, about what reading and decoding a stored
 * memory with its embedding costs).
 *
 * <pre>
 * java -Xmx2g -cp memory-bench/target/benchmarks.jar io.memorychain.bench.search.SearchLatencyHarness \
 *      [--docs 10000,100000] [--queries 2000] [--warmup 1000] [--embed true] [--recall 100]
 *      [--embedding-model minilm|bge-small|e5-small]
 *      [--directory mmap|heap] [--min-candidates 50]
 *      [--m 16] [--beam-width 100] [--quantized false] [--merge-threads 1]
 *      [--threads 1] [--rebuild-ram-mb 32] [--max-segments 0]
 * </pre>
 *
 * HNSW and rebuild options default to {@link IndexSettings#DEFAULTS}.
 */
public final class SearchLatencyHarness {

    private static final int DIMS = OnnxSentenceEmbedder.DIMENSIONS;
    private static final int TOP_K = 10;
    private static final long SEED = 7;
    private static final OperatingSystemMXBean PROCESS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SearchLatencyHarness() {}

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        Map<String, String> opts = parse(args);
        IndexSettings settings = settings(opts);
        int queries = Integer.parseInt(opts.getOrDefault("queries", "2000"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "1000"));
        boolean embed = Boolean.parseBoolean(opts.getOrDefault("embed", "true"));
        String directory = opts.getOrDefault("directory", "mmap");
        int recallQueries = Integer.parseInt(opts.getOrDefault("recall", "100"));
        System.out.printf(
                "java %s, %d cores, max heap %d MiB, %s directory%n%s%n",
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                directory,
                settings);
        try (OnnxSentenceEmbedder embedder = embed
                ? OnnxSentenceEmbedder.create(EmbeddingModel.fromConfigName(
                        opts.getOrDefault("embedding-model", EmbeddingModel.DEFAULT.configName())))
                : null) {
            for (String docs : opts.getOrDefault("docs", "10000,100000").split(",")) {
                run(Integer.parseInt(docs.trim()), settings, directory, embedder, warmup, queries, recallQueries);
            }
        }
        System.exit(0);
    }

    private static void run(
            int docs,
            IndexSettings settings,
            String directory,
            OnnxSentenceEmbedder embedder,
            int warmup,
            int queries,
            int recallQueries)
            throws IOException {
        SyntheticMemories data = new SyntheticMemories(DIMS);
        Footprint before = Footprint.now();
        Path folder = Files.createTempDirectory("search-latency");
        try (MemoryIndex index =
                "heap".equals(directory) ? MemoryIndex.inMemory(settings) : MemoryIndex.onDisk(folder, settings)) {
            String load = loadAverage();
            long cpu0 = PROCESS.getProcessCpuTime();
            long t0 = System.nanoTime();
            long peakHeapMib;
            try (HeapPeak peak = HeapPeak.start()) {
                index.rebuild(data.entries(docs, SEED));
                peakHeapMib = peak.maxMib();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (PROCESS.getProcessCpuTime() - cpu0) / 1e9;
            IndexStats rebuilt = index.stats();
            System.out.printf("%n== %,d memories in one space%n", docs);
            System.out.printf(
                    "rebuild: %.1f s, %,.0f memories/s, %d segments (%d without a graph); process CPU %.1f s "
                            + "(load average %s before, %s after)%n",
                    seconds, docs / seconds, rebuilt.segments(), rebuilt.graphless(), cpuSeconds, load, loadAverage());
            if (index.buildingGraphs()) {
                long[][] exact = measure(index, embedder, workload(embedder, data), 200);
                System.out.println("HYBRID search while the graphs are built (exact kNN, "
                        + index.stats().graphless() + " graphless segments): " + percentiles(exact[2]));
                awaitGraphs(index);
                double total = (System.nanoTime() - t0) / 1e9;
                System.out.printf(
                        "graphs built in the background: %.1f s after the rebuild began (%,.0f memories/s "
                                + "to the final layout), %d segment(s); process CPU since the rebuild began %.1f s "
                                + "(load average %s)%n",
                        total,
                        docs / total,
                        index.stats().segments(),
                        (PROCESS.getProcessCpuTime() - cpu0) / 1e9,
                        loadAverage());
            }
            double recall = recall(index, data, docs, recallQueries);
            if (recallQueries > 0) {
                System.out.printf(
                        "kNN recall@%d against brute force: %.3f (%d random query vectors)%n",
                        TOP_K, recall, recallQueries);
            }
            Footprint built = Footprint.now();
            System.out.printf(
                    "heap used after GC: %d MiB before, %d MiB after the rebuild (index: %d MiB); "
                            + "index files %d MiB; heap used peaked at %d MiB during the rebuild (garbage included)%n",
                    before.heapMib, built.heapMib, built.heapMib - before.heapMib, size(folder) >> 20, peakHeapMib);

            List<Query> workload = workload(embedder, data);
            measure(index, embedder, workload, warmup);
            load = loadAverage();
            long[][] nanos = measure(index, embedder, workload, queries);
            Footprint after = Footprint.now();
            if (embedder != null) {
                System.out.println("embed + HYBRID search: " + percentiles(nanos[0]));
                System.out.println("  of which embedding:  " + percentiles(nanos[1]));
            }
            System.out.println("HYBRID search alone:   " + percentiles(nanos[2]));
            System.out.println("  its thread CPU time: " + percentiles(nanos[3]));
            System.out.printf("(load average %s before the queries, %s after)%n", load, loadAverage());
            System.out.printf(
                    "process RSS %d MiB (anon %d, file-backed %d), peak %d MiB; heap used after GC %d MiB%n",
                    after.rssMib, after.rssAnonMib, after.rssFileMib, after.rssPeakMib, after.heapMib);
        } finally {
            delete(folder);
        }
    }

    /** Mean recall@10 of VECTOR searches with random unit vectors against exact nearest neighbours. */
    private static double recall(MemoryIndex index, SyntheticMemories data, int docs, int queries) {
        SplittableRandom random = new SplittableRandom(1234);
        List<float[]> queryVectors = new ArrayList<>();
        List<PriorityQueue<Map.Entry<String, Double>>> nearest = new ArrayList<>();
        for (int q = 0; q < queries; q++) {
            queryVectors.add(data.unitVector(random));
            nearest.add(new PriorityQueue<>(Map.Entry.comparingByValue()));
        }
        for (Iterator<IndexEntry> scan = data.entries(docs, SEED); scan.hasNext(); ) { // the same entries again
            IndexEntry e = scan.next();
            for (int q = 0; q < queries; q++) {
                float[] query = queryVectors.get(q);
                PriorityQueue<Map.Entry<String, Double>> best = nearest.get(q);
                float[] v = e.embedding();
                double dot = 0;
                for (int i = 0; i < v.length; i++) {
                    dot += v[i] * query[i];
                }
                if (best.size() < TOP_K || dot > best.peek().getValue()) {
                    best.add(Map.entry(e.memory().getId(), dot));
                    if (best.size() > TOP_K) {
                        best.poll();
                    }
                }
            }
        }
        double sum = 0;
        for (int q = 0; q < queries; q++) {
            float[] query = queryVectors.get(q);
            Set<String> truth = new HashSet<>();
            nearest.get(q).forEach(b -> truth.add(b.getKey()));
            long found = index
                    .search(SearchRequest.builder(SyntheticMemories.SPACE)
                            .vector(query)
                            .mode(SearchMode.VECTOR)
                            .topK(TOP_K)
                            .build())
                    .stream()
                    .filter(h -> truth.contains(h.id()))
                    .count();
            sum += found / (double) TOP_K;
        }
        return queries == 0 ? Double.NaN : sum / queries;
    }

    private record Query(String text, float[] randomVector) {}

    private static List<Query> workload(OnnxSentenceEmbedder embedder, SyntheticMemories data) {
        SplittableRandom random = new SplittableRandom(99);
        List<Query> queries = new ArrayList<>();
        for (String text : NaturalQueries.ALL) {
            queries.add(new Query(text, embedder == null ? data.unitVector(random) : null));
        }
        return queries;
    }

    /** Per query: total, embedding and search nanos, and the search's CPU nanos. */
    private static long[][] measure(MemoryIndex index, OnnxSentenceEmbedder embedder, List<Query> workload, int n) {
        long[][] nanos = new long[4][n];
        int empty = 0;
        for (int i = 0; i < n; i++) {
            Query q = workload.get(i % workload.size());
            long t0 = System.nanoTime();
            float[] vector = embedder == null ? q.randomVector() : embedder.embedQuery(q.text());
            long c1 = THREADS.getCurrentThreadCpuTime();
            long t1 = System.nanoTime();
            int hits = index.search(SearchRequest.builder(SyntheticMemories.SPACE)
                            .text(q.text())
                            .vector(vector)
                            .mode(SearchMode.HYBRID)
                            .topK(TOP_K)
                            .build())
                    .size();
            long t2 = System.nanoTime();
            nanos[3][i] = THREADS.getCurrentThreadCpuTime() - c1;
            empty += hits < TOP_K ? 1 : 0;
            nanos[0][i] = t2 - t0;
            nanos[1][i] = t1 - t0;
            nanos[2][i] = t2 - t1;
        }
        if (empty > 0) {
            throw new IllegalStateException(empty + " queries returned fewer than " + TOP_K + " hits");
        }
        return nanos;
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(
                "p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms (%d queries)",
                at(sorted, 0.50), at(sorted, 0.95), at(sorted, 0.99), sorted[sorted.length - 1] / 1e6, sorted.length);
    }

    private static double at(long[] sorted, double quantile) {
        int i = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(i, sorted.length - 1))] / 1e6;
    }

    private static IndexSettings settings(Map<String, String> o) {
        IndexSettings base = IndexSettings.DEFAULTS.withDimensions(DIMS);
        IndexSettings d = new IndexSettings(
                DIMS,
                base.rrfK(),
                base.candidateFactor(),
                Integer.parseInt(o.getOrDefault("min-candidates", "" + base.minCandidates())),
                base.ramBufferMb(),
                base.hnsw(),
                base.rebuild());
        IndexSettings.Hnsw h = d.hnsw();
        IndexSettings.Rebuild r = d.rebuild();
        return d.withHnsw(new IndexSettings.Hnsw(
                        Integer.parseInt(o.getOrDefault("m", "" + h.maxConn())),
                        Integer.parseInt(o.getOrDefault("beam-width", "" + h.beamWidth())),
                        Boolean.parseBoolean(o.getOrDefault("quantized", "" + h.quantized())),
                        Integer.parseInt(o.getOrDefault("merge-threads", "" + h.mergeThreads()))))
                .withRebuild(new IndexSettings.Rebuild(
                        Integer.parseInt(o.getOrDefault("threads", "" + r.threads())),
                        Double.parseDouble(o.getOrDefault("rebuild-ram-mb", "" + r.ramBufferMb())),
                        Integer.parseInt(o.getOrDefault("max-segments", "" + r.maxSegments())),
                        Boolean.parseBoolean(o.getOrDefault("graphs-later", "" + r.graphsLater()))));
    }

    private static void awaitGraphs(MemoryIndex index) {
        try {
            if (!index.awaitGraphs(java.time.Duration.ofHours(1))) {
                throw new IllegalStateException("the graph build did not end within an hour");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Heap after a full GC and the process's resident set (Linux only; -1 elsewhere). */
    private record Footprint(long heapMib, long rssMib, long rssAnonMib, long rssFileMib, long rssPeakMib) {

        static Footprint now() throws IOException {
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            Runtime rt = Runtime.getRuntime();
            Map<String, Long> status = new LinkedHashMap<>();
            Path proc = Path.of("/proc/self/status");
            if (Files.exists(proc)) {
                for (String line : Files.readAllLines(proc)) {
                    String[] kv = line.split(":\\s+");
                    if (kv.length == 2 && kv[1].endsWith(" kB")) {
                        status.put(
                                kv[0], Long.parseLong(kv[1].replace(" kB", "").trim()) >> 10);
                    }
                }
            }
            return new Footprint(
                    (rt.totalMemory() - rt.freeMemory()) >> 20,
                    status.getOrDefault("VmRSS", -1L),
                    status.getOrDefault("RssAnon", -1L),
                    status.getOrDefault("RssFile", -1L) + status.getOrDefault("RssShmem", 0L),
                    status.getOrDefault("VmHWM", -1L));
        }
    }

    static String loadAverage() throws IOException {
        Path proc = Path.of("/proc/loadavg");
        return Files.exists(proc)
                ? String.join(" ", Arrays.copyOf(Files.readString(proc).split(" "), 3))
                : "n/a";
    }

    /** The highest heap occupancy seen by a sampler thread every 10 ms (young garbage included). */
    private static final class HeapPeak implements AutoCloseable {
        private final Thread sampler;
        private volatile boolean done;
        private volatile long max;

        private HeapPeak() {
            sampler = new Thread(
                    () -> {
                        while (!done) {
                            max = Math.max(
                                    max,
                                    ManagementFactory.getMemoryMXBean()
                                            .getHeapMemoryUsage()
                                            .getUsed());
                            LockSupport.parkNanos(10_000_000);
                        }
                    },
                    "heap-peak");
            sampler.setDaemon(true);
        }

        static HeapPeak start() {
            HeapPeak p = new HeapPeak();
            p.sampler.start();
            return p;
        }

        long maxMib() {
            return max >> 20;
        }

        @Override
        public void close() {
            done = true;
        }
    }

    static long size(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    static void delete(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options are --name value pairs; got " + String.join(" ", args));
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }
}
