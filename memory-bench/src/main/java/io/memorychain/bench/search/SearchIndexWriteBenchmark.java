package io.memorychain.bench.search;

import io.memorychain.avro.Memory;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Index build rate: a full {@link MemoryIndex#rebuild} of 10,000 memories with 384-d vectors (one invocation per
 * iteration; the result is per memory), and incremental upserts of new versions into a live index of {@code docs}
 * memories (what the projection pays per event; segments are flushed and merged in the background).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro"})
public class SearchIndexWriteBenchmark {

    private static final int DIMS = SearchIndexBenchmark.DIMS;
    private static final int UPSERTS = 1_000;

    @Param({"10000"})
    public int docs;

    private SyntheticMemories data;
    private List<IndexEntry> entries;
    private MemoryIndex live;
    private List<IndexEntry> updates;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        data = new SyntheticMemories(DIMS);
        entries = new ArrayList<>(docs);
        data.entries(docs, 7).forEachRemaining(entries::add);
        live = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));
        live.rebuild(entries.iterator());
        SplittableRandom random = new SplittableRandom(3);
        updates = new ArrayList<>(UPSERTS);
        for (int i = 0; i < UPSERTS; i++) { // new versions of existing memories
            Memory m = data.memory(random.nextInt(docs), random);
            m.setVersion(2);
            updates.add(new IndexEntry(m, data.unitVector(random)));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        live.close();
    }

    /** Per memory: a rebuild from pre-generated entries into a fresh in-heap index. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    @OperationsPerInvocation(10_000)
    public long rebuild() {
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS))) {
            return index.rebuild(entries.subList(0, Math.min(10_000, docs)).iterator());
        }
    }

    /** Per memory: one upsert of a new version into the live index (no refresh). */
    @Benchmark
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 3)
    public void upsert() {
        IndexEntry e = updates.get(next);
        next = (next + 1) % UPSERTS;
        live.upsert(e.memory(), e.embedding());
    }
}
