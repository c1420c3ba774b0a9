package io.memorychain.bench.search;

import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Query latency of {@link MemoryIndex} (percentiles: sample mode) over {@code docs} generated memories with 384-d
 * random unit vectors, top 10, in each mode, unfiltered or restricted to one user of ten (10% of the memories, applied
 * inside the search). The trial setup rebuilds the index and prints the build rate. Run e.g. {@code java -jar
 * memory-bench/target/benchmarks.jar SearchIndexBenchmark -p docs=10000}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SearchIndexBenchmark {

    static final int DIMS = 384;
    private static final int QUERIES = 1024;

    @Param({"10000", "100000"})
    public int docs;

    @Param({"BM25", "VECTOR", "HYBRID"})
    public SearchMode mode;

    /** {@code none}, or {@code user}: only the memories of one user of ten. */
    @Param({"none", "user"})
    public String filter;

    /** {@code mmap} (a temp folder, as under the Streams state dir) or {@code heap}. */
    @Param({"mmap"})
    public String directory;

    private Path folder;
    private MemoryIndex index;
    private SearchRequest[] requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SyntheticMemories data = new SyntheticMemories(DIMS);
        IndexSettings settings = IndexSettings.DEFAULTS.withDimensions(DIMS);
        if ("heap".equals(directory)) {
            index = MemoryIndex.inMemory(settings);
        } else {
            folder = Files.createTempDirectory("search-bench");
            index = MemoryIndex.onDisk(folder, settings);
        }
        long start = System.nanoTime();
        index.rebuild(data.entries(docs, 7));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "%n[setup] rebuilt %d memories in %.1f s: %.0f memories/s (%s)%n",
                docs, seconds, docs / seconds, directory);
        SplittableRandom random = new SplittableRandom(99);
        requests = new SearchRequest[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
            SearchFilters filters = "user".equals(filter)
                    ? SearchFilters.builder()
                            .userId("user" + random.nextInt(SyntheticMemories.USERS))
                            .build()
                    : SearchFilters.NONE;
            requests[i] = SearchRequest.builder(SyntheticMemories.SPACE)
                    .text(data.query(random, 3))
                    .vector(data.unitVector(random))
                    .mode(mode)
                    .topK(10)
                    .filters(filters)
                    .build();
        }
        int empty = 0;
        for (SearchRequest r : requests) {
            empty += index.search(r).isEmpty() ? 1 : 0;
        }
        System.out.printf("[setup] %d of %d queries found nothing%n", empty, QUERIES);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        index.close();
        if (folder != null) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Benchmark
    public List<Hit> search() {
        SearchRequest r = requests[next];
        next = (next + 1) % QUERIES;
        return index.search(r);
    }
}
