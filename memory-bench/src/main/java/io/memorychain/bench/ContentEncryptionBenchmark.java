package io.memorychain.bench;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.DataKey;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.testing.TestChains;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-path and read-path cost of content encryption (docs/architecture.md §12, erasure) on the ~600-byte
 * {@code MemoryCreated} events of {@link ChainBenchmark}: sealing an event as the sequencer does without encryption
 * (deep copy + seal) and with it (deep copy, unwrap the memory's data key with the master key, AES-256-GCM of content
 * and tags, seal), and a reader's decryption of one event (deep copy + key lookup + AES-GCM open). Per event.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ContentEncryptionBenchmark {

    private ChainSealer sealer;
    private MasterKey master;
    private List<MemoryEvent> events;
    private List<MemoryEvent> encrypted;
    private final Map<String, byte[]> wrapped = new HashMap<>();
    private ChainContent reader;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        sealer = new ChainSealer(ChainKeys.generate());
        master = MasterKey.generate();
        events = TestChains.sealedChain(sealer, ChainBenchmark.SPACE, 1_000, ChainBenchmark.PADDING);
        Map<String, DataKey> keys = new HashMap<>();
        encrypted = new ArrayList<>(events.size());
        for (MemoryEvent event : events) {
            Memory m = memory(event);
            byte[] key = ContentCipher.newKey();
            wrapped.put(m.getId(), master.wrap(m.getSpace(), m.getId(), key));
            keys.put(m.getId(), new DataKey(m.getId(), event.getSeq(), key, null));
            MemoryEvent copy = MemoryEvent.newBuilder(event).build();
            ChainContent.encrypt(memory(copy), key);
            encrypted.add(sealer.seal(copy));
        }
        reader = ChainContent.decrypting((space, id) -> keys.get(id));
    }

    private static Memory memory(MemoryEvent event) {
        return ((io.memorychain.avro.MemoryCreated) event.getPayload()).getMemory();
    }

    /** The sequencer without encryption: the copy it seals, and the seal. */
    @Benchmark
    public MemoryEvent sealPlain() {
        MemoryEvent event = events.get(next);
        next = (next + 1) % events.size();
        return sealer.seal(MemoryEvent.newBuilder(event).build());
    }

    /** The sequencer with encryption: copy, unwrap the data key, encrypt content and tags, seal. */
    @Benchmark
    public MemoryEvent sealEncrypted() {
        MemoryEvent event = events.get(next);
        next = (next + 1) % events.size();
        MemoryEvent copy = MemoryEvent.newBuilder(event).build();
        Memory m = memory(copy);
        byte[] key = master.unwrap(m.getSpace(), m.getId(), wrapped.get(m.getId()));
        ChainContent.encrypt(m, key);
        return sealer.seal(copy);
    }

    /** A reader: decrypt one event's memory (the events are copied first, as a fresh decode would give). */
    @Benchmark
    public MemoryEvent decrypt() {
        MemoryEvent event = encrypted.get(next);
        next = (next + 1) % encrypted.size();
        return reader.decrypt(MemoryEvent.newBuilder(event).build());
    }

    /** The copy alone, to subtract from {@link #decrypt()}. */
    @Benchmark
    public MemoryEvent copyOnly() {
        MemoryEvent event = encrypted.get(next);
        next = (next + 1) % encrypted.size();
        return MemoryEvent.newBuilder(event).build();
    }
}
