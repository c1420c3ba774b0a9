package io.memorychain.api.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.registry.SchemaRegistryException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.TestChains;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The chain verifier on records as it reads them from the topic (wire-format bytes decoded with their writer schema),
 * after the fuzzer changed the bytes of one of a sealed chain's events: a record that cannot be decoded breaks the
 * chain ({@code acceptUndecodable}), any other is verified; the verifier answers a result, never an exception, and an
 * untouched chain verifies.
 */
class ChainVerifierFuzzTest {

    private static final String SPACE = "alice";
    private static final ChainKeys KEYS = ChainKeys.generate();
    private static final InMemorySchemaRegistry REGISTRY = new InMemorySchemaRegistry();
    private static final List<byte[]> WIRE = wire();

    @FuzzTest(maxDuration = "2m")
    void verify(FuzzedDataProvider data) {
        List<byte[]> records = new ArrayList<>(WIRE);
        int target = data.consumeInt(0, records.size() - 1);
        byte[] bytes = records.get(target).clone();
        int edits = data.consumeInt(0, 8);
        for (int i = 0; i < edits && bytes.length > 0; i++) {
            bytes[data.consumeInt(0, bytes.length - 1)] = data.consumeByte();
        }
        int length = data.consumeInt(0, bytes.length + 64);
        byte[] tail = data.consumeRemainingAsBytes();
        byte[] mutated = Arrays.copyOf(bytes, length);
        System.arraycopy(
                tail,
                0,
                mutated,
                Math.min(bytes.length, length),
                Math.max(0, Math.min(tail.length, length - bytes.length)));
        records.set(target, mutated);

        ChainVerifier verifier = new ChainVerifier(SPACE, KEYS.publicRing(), SignatureMode.ALL);
        for (byte[] record : records) {
            GenericRecord event;
            try {
                event = AvroWireSerde.decodeAsWritten(REGISTRY, record);
            } catch (SerializationException | SchemaRegistryException e) {
                verifier.acceptUndecodable(e.getMessage());
                continue;
            }
            verifier.accept(event);
        }
        VerificationResult result = verifier.result();
        if (Arrays.equals(mutated, WIRE.get(target))) {
            assertThat(result.ok()).as(result.message()).isTrue();
        }
    }

    private static List<byte[]> wire() {
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(REGISTRY, MemoryEvent.class);
        return TestChains.sealedChain(new ChainSealer(KEYS), SPACE, 4).stream()
                .map(e -> serde.serialize("memory.events", e))
                .toList();
    }
}
