package io.memorychain.bench;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.TestChains;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost per event of the chain on ~600-byte events (Avro binary of a {@code MemoryCreated}): sealing (canonical encoding
 * + SHA-256 + Ed25519 sign), hashing alone, and verifying a chain of {@value #CHAIN} events read as generic records
 * decoded with their writer schema (what {@code KafkaChainReader} feeds the verifier) with every signature or one per
 * 1000 events, with and without the wire-format decoding. All results are per event.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ChainBenchmark {

    static final int CHAIN = 10_000;
    static final String SPACE = "bench";
    /** Content padding that brings the Avro binary of an event to ~600 bytes. */
    static final int PADDING = 207;

    private ChainSealer sealer;
    private KeyRing ring;
    private List<MemoryEvent> toSeal;
    private int next;
    private List<GenericRecord> decoded;
    private List<byte[]> wire;
    private InMemorySchemaRegistry registry;

    @Setup(Level.Trial)
    public void setUp() {
        ChainKeys keys = ChainKeys.generate();
        sealer = new ChainSealer(keys);
        ring = keys.publicRing();
        List<MemoryEvent> chain = TestChains.sealedChain(sealer, SPACE, CHAIN, PADDING);
        toSeal = TestChains.sealedChain(sealer, SPACE, 1_000, PADDING);
        registry = new InMemorySchemaRegistry();
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        wire = new ArrayList<>(CHAIN);
        decoded = new ArrayList<>(CHAIN);
        long bytes = 0;
        for (MemoryEvent event : chain) {
            byte[] value = serde.serialize("bench", event);
            wire.add(value);
            decoded.add(AvroWireSerde.decodeAsWritten(registry, value));
            bytes += value.length;
        }
        System.out.printf(
                "%n[setup] %d events, %d bytes per event in wire format (Avro body %d, canonical bytes %d)%n",
                CHAIN, bytes / CHAIN, bytes / CHAIN - 5, Canonical.bytes(chain.get(0)).length);
        VerificationResult check = verify(decoded, SignatureMode.ALL);
        if (!check.ok() || check.events() != CHAIN) {
            throw new IllegalStateException("benchmark chain does not verify: " + check);
        }
    }

    private VerificationResult verify(List<GenericRecord> events, SignatureMode mode) {
        ChainVerifier verifier = new ChainVerifier(SPACE, ring, mode);
        for (GenericRecord event : events) {
            verifier.accept(event);
        }
        return verifier.result();
    }

    /** One event: canonical bytes, SHA-256 and Ed25519 signature (what the sequencer pays per event). */
    @Benchmark
    public MemoryEvent seal() {
        MemoryEvent event = toSeal.get(next);
        next = (next + 1) % toSeal.size();
        return sealer.seal(event);
    }

    /** One event: canonical bytes and SHA-256 only. */
    @Benchmark
    public byte[] hash() {
        MemoryEvent event = toSeal.get(next);
        next = (next + 1) % toSeal.size();
        return Canonical.hash(event);
    }

    /** Per event: hash, link and signature of every event. */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public VerificationResult verifyAll() {
        return verify(decoded, SignatureMode.ALL);
    }

    /** Per event: hash and link of every event, signatures on every 1000th seq and the last. */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public VerificationResult verifyCheckpoints1000() {
        return verify(decoded, SignatureMode.checkpoints(1000));
    }

    /** Per event: wire-format decoding with the writer schema, then CHECKPOINTS(1000) verification. */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public VerificationResult decodeAndVerifyCheckpoints1000() {
        ChainVerifier verifier = new ChainVerifier(SPACE, ring, SignatureMode.checkpoints(1000));
        for (byte[] value : wire) {
            verifier.accept(AvroWireSerde.decodeAsWritten(registry, value));
        }
        return verifier.result();
    }

    /** Per event: wire-format decoding with the writer schema alone. */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public long decodeOnly() {
        long seqs = 0;
        for (byte[] value : wire) {
            seqs += (Long) AvroWireSerde.decodeAsWritten(registry, value).get("seq");
        }
        return seqs;
    }
}
