package io.memorychain.bench.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.events.AvroTrust;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.ThreadNeighbours;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Thread context's neighbour lookup (docs/architecture.md §7) on one space of N memories in threads of 20, as
 * {@code memory.query} does it for its 40 candidates: the in-memory thread order ({@link MemoryIndex#threadNeighbours})
 * against the two sorted index searches per candidate it replaced ({@link MemoryIndex#threadNeighboursBySearch}),
 * interleaved on the same index and the same random candidate sets, with a check that both answer the same. No vectors:
 * the lookup does not read them.
 *
 * <p>{@code java -cp memory-bench/target/benchmarks.jar io.memorychain.bench.search.ThreadNeighboursHarness [--docs
 * 20000,100000] [--lookups 2000]}
 */
public final class ThreadNeighboursHarness {

    private static final int THREAD_LENGTH = 20;
    private static final int CANDIDATES = 40;
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private ThreadNeighboursHarness() {}

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        int[] sizes = {20_000, 100_000};
        int lookups = 2000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--docs" ->
                    sizes = Arrays.stream(args[i + 1].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
                case "--lookups" -> lookups = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("usage: [--docs 20000,100000] [--lookups 2000]");
            }
        }
        for (int docs : sizes) {
            run(docs, lookups);
        }
    }

    private static void run(int docs, int lookups) throws Exception {
        Path folder = Files.createTempDirectory("thread-neighbours-bench");
        try (MemoryIndex index = MemoryIndex.onDisk(folder, IndexSettings.DEFAULTS)) {
            index.rebuild(IntStream.range(0, docs)
                    .mapToObj(i -> new IndexEntry(memory(i), null))
                    .iterator());
            Random random = new Random(7);
            long[] inMemory = new long[lookups];
            long[] searched = new long[lookups];
            for (int round = 0; round < 2; round++) { // the first round warms up the JIT, the second is measured
                for (int q = 0; q < lookups; q++) {
                    List<Memory> candidates = new ArrayList<>(CANDIDATES);
                    for (int c = 0; c < CANDIDATES; c++) {
                        candidates.add(memory(random.nextInt(docs)));
                    }
                    long t0 = System.nanoTime();
                    Map<String, ThreadNeighbours> a = index.threadNeighbours(SyntheticMemories.SPACE, candidates);
                    long t1 = System.nanoTime();
                    Map<String, ThreadNeighbours> b =
                            index.threadNeighboursBySearch(SyntheticMemories.SPACE, candidates);
                    long t2 = System.nanoTime();
                    if (!a.equals(b)) {
                        throw new IllegalStateException("the two lookups differ for " + candidates);
                    }
                    inMemory[q] = t1 - t0;
                    searched[q] = t2 - t1;
                }
            }
            System.out.printf(
                    "%,d memories in threads of %d, %d lookups of %d candidates: thread order p50 / p95 /"
                            + " p99 %s ms; two sorted searches per candidate %s ms%n",
                    docs, THREAD_LENGTH, lookups, CANDIDATES, percentiles(inMemory), percentiles(searched));
        } finally {
            try (var files = Files.walk(folder)) {
                files.sorted((x, y) -> y.compareTo(x)).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Memory i: thread i / 20, one second after the one before it; every 7th a second after the previous too. */
    private static Memory memory(int i) {
        long second = i - (i % 7 == 6 ? 1 : 0); // equal created_at within a thread now and then
        return Memory.newBuilder()
                .setId(String.format("m%07d", i))
                .setSpace(SyntheticMemories.SPACE)
                .setKind(MemoryKind.EPISODIC)
                .setTier(Tier.WORKING)
                .setContent("turn " + i)
                .setTags(List.of())
                .setImportance(3)
                .setCreatedAt(T0.plusSeconds(second))
                .setUpdatedAt(T0.plusSeconds(second))
                .setVersion(1)
                .setState(i % 11 == 10 ? MemoryState.SOFT_DELETED : MemoryState.ACTIVE)
                .setContentHash("0".repeat(64))
                .setThreadId("thread-" + i / THREAD_LENGTH)
                .build();
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format("%.3f / %.3f / %.3f", at(sorted, 50), at(sorted, 95), at(sorted, 99));
    }

    private static double at(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1)] / 1e6;
    }
}
