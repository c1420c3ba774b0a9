package io.memorychain.bench.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.projector.search.EntityNameKeys;
import io.memorychain.projector.search.IndexEntry;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
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
 * The entity channel's name resolution (docs/architecture.md §7): the query's name keys ({@link EntityNameKeys}) looked
 * up in the index ({@link MemoryIndex#namedEntities}) over {@code docs} memories of one space, one in ten an entity
 * with a two-word name; half the queries name one of them (possessive included), half name nobody. Vectors are left out
 * (the lookup never reads them). Run e.g. {@code java -jar memory-bench/target/benchmarks.jar EntityLookupBenchmark -p
 * docs=100000}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class EntityLookupBenchmark {

    private static final int QUERIES = 1024;

    @Param({"10000", "100000"})
    public int docs;

    private Path folder;
    private MemoryIndex index;
    private String[] queries;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SyntheticMemories data = new SyntheticMemories(SearchIndexBenchmark.DIMS);
        SplittableRandom random = new SplittableRandom(7);
        List<String> names = new ArrayList<>();
        List<IndexEntry> entries = new ArrayList<>(docs);
        for (int n = 0; n < docs; n++) {
            Memory m = data.memory(n, random);
            if (n % 10 == 0) {
                String name = capitalised(data.word(random)) + " " + capitalised(data.word(random));
                names.add(name);
                m = Memory.newBuilder(m)
                        .setKind(MemoryKind.ENTITY)
                        .setContent(name + " — " + m.getContent())
                        .build();
            }
            entries.add(new IndexEntry(m, null));
        }
        folder = Files.createTempDirectory("entity-bench");
        index = MemoryIndex.onDisk(folder, IndexSettings.DEFAULTS.withDimensions(SearchIndexBenchmark.DIMS));
        Iterator<IndexEntry> feed = entries.iterator();
        index.rebuild(feed);
        queries = new String[QUERIES];
        int found = 0;
        for (int i = 0; i < QUERIES; i++) {
            String words = data.query(random, 4);
            queries[i] = i % 2 == 0
                    ? "What does " + names.get(random.nextInt(names.size())) + "'s team " + words + "?"
                    : "What about " + words + "?";
            found += index.namedEntities(SyntheticMemories.SPACE, EntityNameKeys.ofQuery(queries[i]), 16)
                            .isEmpty()
                    ? 0
                    : 1;
        }
        System.out.printf(
                Locale.ROOT,
                "%n[setup] %d memories, %d entities; %d of %d queries resolve an entity%n",
                docs,
                names.size(),
                found,
                QUERIES);
    }

    private static String capitalised(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        index.close();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public List<String> resolve() {
        String q = queries[next];
        next = (next + 1) % QUERIES;
        return index.namedEntities(SyntheticMemories.SPACE, EntityNameKeys.ofQuery(q), 16);
    }
}
