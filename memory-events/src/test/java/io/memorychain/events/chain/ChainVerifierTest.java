package io.memorychain.events.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.chain.VerificationResult.Problem;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.TestChains;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.junit.jupiter.api.Test;

class ChainVerifierTest {

    private static final String SPACE = "alice";
    private static final ChainKeys KEYS = ChainKeys.generate();
    private static final ChainSealer SEALER = new ChainSealer(KEYS);
    private static final KeyRing RING = KEYS.publicRing();

    private final List<MemoryEvent> chain = TestChains.sealedChain(SEALER, SPACE, 50);

    private static VerificationResult verify(List<? extends IndexedRecord> events, SignatureMode mode) {
        ChainVerifier verifier = new ChainVerifier(SPACE, RING, mode);
        events.forEach(verifier::accept);
        return verifier.result();
    }

    private static VerificationResult verify(List<? extends IndexedRecord> events) {
        return verify(events, SignatureMode.ALL);
    }

    /** Index of seq in the chain list. */
    private static int at(long seq) {
        return (int) seq - 1;
    }

    private static ByteBuffer hashOf(IndexedRecord event) {
        return ByteBuffer.wrap(Canonical.hash(event));
    }

    @Test
    void acceptsAnIntactChainOfFiftyEvents() {
        VerificationResult result = verify(chain);

        assertThat(result.ok()).isTrue();
        assertThat(result.events()).isEqualTo(50);
        assertThat(result.firstBadSeq()).isNull();
        assertThat(result.problem()).isNull();
        assertThat(result.message())
                .contains("seq 50")
                .contains(Canonical.hex(Canonical.toArray(chain.get(49).getHash())));
    }

    @Test
    void acceptsAnEmptyChain() {
        VerificationResult result = verify(List.of());

        assertThat(result.ok()).isTrue();
        assertThat(result.events()).isZero();
    }

    @Test
    void reportsContentChangedAfterSealingAsBadHash() {
        TestChains.memory(chain.get(at(23))).setContent("edited after sealing");

        VerificationResult result = verify(chain);

        assertThat(result.ok()).isFalse();
        assertThat(result.problem()).isEqualTo(Problem.BAD_HASH);
        assertThat(result.firstBadSeq()).isEqualTo(23L);
        assertThat(result.events()).isEqualTo(23);
    }

    @Test
    void reportsReplacedSignatureAsBadSignature() {
        MemoryEvent victim = chain.get(at(31));
        // a well-formed signature over the right hash, by the wrong private key: the key id still names ours
        victim.setSignature(ByteBuffer.wrap(ChainKeys.generate().sign(Canonical.toArray(victim.getHash()))));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(result.firstBadSeq()).isEqualTo(31L);
    }

    @Test
    void reportsGarbageSignatureAsBadSignature() {
        chain.get(at(7)).setSignature(ByteBuffer.wrap(new byte[] {1, 2, 3}));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(result.firstBadSeq()).isEqualTo(7L);
    }

    @Test
    void reportsEventSealedWithAKeyOutsideTheRingAsUnknownKey() {
        MemoryEvent victim = chain.get(at(12));
        new ChainSealer(ChainKeys.generate()).seal(victim);

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.UNKNOWN_KEY);
        assertThat(result.firstBadSeq()).isEqualTo(12L);
        assertThat(result.message()).contains(victim.getKeyId());
    }

    @Test
    void reportsEventRelinkedToAnOlderEventAsBrokenLinkEvenWhenResealed() {
        MemoryEvent victim = chain.get(at(40));
        victim.setPrevHash(chain.get(at(38)).getHash());
        SEALER.seal(victim); // an insider with the key: hash and signature are valid, the link is not

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.BROKEN_LINK);
        assertThat(result.firstBadSeq()).isEqualTo(40L);
    }

    @Test
    void reportsFirstEventNotLinkedToGenesisAsBrokenLink() {
        MemoryEvent first = chain.get(0);
        first.setPrevHash(ByteBuffer.wrap(Canonical.sha256(new byte[] {42})));
        SEALER.seal(first);

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.BROKEN_LINK);
        assertThat(result.firstBadSeq()).isEqualTo(1L);
        assertThat(result.message()).contains("genesis");
    }

    @Test
    void reportsSkippedSeqAsGapAtTheMissingSeq() {
        chain.remove(at(17));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.GAP);
        assertThat(result.firstBadSeq()).isEqualTo(17L);
        assertThat(result.message()).contains("seq 18 found where 17 was expected");
    }

    @Test
    void reportsChainNotStartingAtOneAsGapAtSeqOne() {
        VerificationResult result = verify(chain.subList(1, chain.size()));

        assertThat(result.problem()).isEqualTo(Problem.GAP);
        assertThat(result.firstBadSeq()).isEqualTo(1L);
        assertThat(result.events()).isEqualTo(1);
    }

    @Test
    void reportsRepeatedSeqAsDuplicateAtTheNextExpectedSeq() {
        chain.add(at(21), TestChains.copy(chain.get(at(20))));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.DUPLICATE);
        assertThat(result.firstBadSeq()).isEqualTo(21L);
        assertThat(result.events()).isEqualTo(21);
        assertThat(result.message()).contains("seq 20 appears again");
    }

    @Test
    void reportsSeqGoingBackAsDuplicate() {
        chain.add(at(31), TestChains.copy(chain.get(at(5))));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.DUPLICATE);
        assertThat(result.firstBadSeq()).isEqualTo(31L);
        assertThat(result.message()).contains("seq 5 found after seq 30");
    }

    @Test
    void reportsEventOfAnotherSpaceAsWrongSpace() {
        List<MemoryEvent> other = TestChains.sealedChain(SEALER, "bob", 5);
        chain.add(at(3), other.get(at(3)));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.WRONG_SPACE);
        assertThat(result.firstBadSeq()).isEqualTo(3L);
        assertThat(result.message()).contains("'bob'");
    }

    @Test
    void reportsUndecodableRecordAtTheNextExpectedSeq() {
        ChainVerifier verifier = new ChainVerifier(SPACE, RING, SignatureMode.ALL);
        chain.subList(0, 10).forEach(verifier::accept);

        assertThat(verifier.acceptUndecodable("Malformed data")).isFalse();
        chain.subList(10, 50).forEach(verifier::accept);
        VerificationResult result = verifier.result();

        assertThat(result.problem()).isEqualTo(Problem.UNDECODABLE);
        assertThat(result.firstBadSeq()).isEqualTo(11L);
        assertThat(result.events()).isEqualTo(11);
        assertThat(result.message()).contains("Malformed data");
    }

    @Test
    void reportsRecordThatIsNotAChainEventAsUndecodable() {
        Schema foreign =
                SchemaBuilder.record("Other").fields().requiredString("space").endRecord();
        GenericRecord notAnEvent = new GenericData.Record(foreign);
        notAnEvent.put("space", SPACE);
        List<IndexedRecord> records = new ArrayList<>(chain.subList(0, 4));
        records.add(notAnEvent);

        VerificationResult result = verify(records);

        assertThat(result.problem()).isEqualTo(Problem.UNDECODABLE);
        assertThat(result.firstBadSeq()).isEqualTo(5L);
        assertThat(MemoryRequest.getClassSchema().getField("seq"))
                .as("requests are not chain events")
                .isNull();
    }

    @Test
    void reportsOnlyTheFirstProblemAndStopsThere() {
        TestChains.memory(chain.get(at(10))).setContent("tampered");
        chain.remove(at(30));

        VerificationResult result = verify(chain);

        assertThat(result.problem()).isEqualTo(Problem.BAD_HASH);
        assertThat(result.firstBadSeq()).isEqualTo(10L);
        assertThat(result.events()).isEqualTo(10);
    }

    @Test
    void checkpointModeDetectsContentTamperingBetweenCheckpointsThroughTheHash() {
        TestChains.memory(chain.get(at(23))).setContent("edited after sealing");

        VerificationResult result = verify(chain, SignatureMode.checkpoints(10));

        assertThat(result.problem()).isEqualTo(Problem.BAD_HASH);
        assertThat(result.firstBadSeq()).isEqualTo(23L);
    }

    @Test
    void checkpointModeDetectsForgedSignatureOnACheckpointEvent() {
        MemoryEvent checkpoint = chain.get(at(30));
        checkpoint.setSignature(ByteBuffer.wrap(ChainKeys.generate().sign(Canonical.toArray(checkpoint.getHash()))));

        VerificationResult result = verify(chain, SignatureMode.checkpoints(10));

        assertThat(result.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(result.firstBadSeq()).isEqualTo(30L);
    }

    @Test
    void checkpointModeCatchesARehashedForgeryAtTheNextCheckpoint() {
        // an attacker without the key edits seq 23 and recomputes every later hash and link: hashes and links verify,
        // but the signatures (over the old hashes) no longer do
        TestChains.memory(chain.get(at(23))).setContent("rewritten history");
        for (int i = at(23); i < chain.size(); i++) {
            MemoryEvent event = chain.get(i);
            if (i > at(23)) {
                event.setPrevHash(chain.get(i - 1).getHash());
            }
            event.setHash(hashOf(event));
        }

        VerificationResult checkpoints = verify(chain, SignatureMode.checkpoints(10));
        VerificationResult all = verify(chain, SignatureMode.ALL);

        assertThat(checkpoints.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(checkpoints.firstBadSeq()).isEqualTo(30L);
        assertThat(checkpoints.message()).contains("events 21..30 are not authenticated");
        assertThat(all.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(all.firstBadSeq()).isEqualTo(23L);
    }

    @Test
    void checkpointModeChecksTheSignatureOfTheLastEvent() {
        MemoryEvent last = chain.get(at(50));
        last.setHash(hashOf(last)); // unchanged hash, but re-set so only the signature matters
        last.setSignature(ByteBuffer.wrap(ChainKeys.generate().sign(Canonical.toArray(last.getHash()))));

        VerificationResult result = verify(chain, SignatureMode.checkpoints(1000));

        assertThat(result.problem()).isEqualTo(Problem.BAD_SIGNATURE);
        assertThat(result.firstBadSeq()).isEqualTo(50L);
        assertThat(result.message()).contains("events 1..50 are not authenticated");
    }

    @Test
    void checkpointModeLetsTheNextCheckpointVouchForEventsBetweenCheckpoints() {
        // the signature field is not covered by the hash: a damaged signature between checkpoints does not mean
        // damaged content, and the valid signature on seq 30 authenticates seq 25's hash through the links
        chain.get(at(25)).setSignature(ByteBuffer.wrap(new byte[64]));

        assertThat(verify(chain, SignatureMode.checkpoints(10)).ok()).isTrue();
        assertThat(verify(chain, SignatureMode.ALL).firstBadSeq()).isEqualTo(25L);
    }

    @Test
    void checkpointModeStillReportsUnknownKeysBetweenCheckpoints() {
        new ChainSealer(ChainKeys.generate()).seal(chain.get(at(50)));

        VerificationResult result = verify(chain.subList(0, 50), SignatureMode.checkpoints(1000));

        assertThat(result.problem()).isEqualTo(Problem.UNKNOWN_KEY);
        assertThat(result.firstBadSeq()).isEqualTo(50L);
    }

    @Test
    void genericRecordDecodedWithTheWriterSchemaHasTheSameHashAsTheSpecificRecord() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        List<GenericRecord> decoded = new ArrayList<>();
        for (MemoryEvent event : chain) {
            decoded.add(AvroWireSerde.decodeAsWritten(registry, serde.serialize("events", event)));
        }

        for (int i = 0; i < chain.size(); i++) {
            assertThat(decoded.get(i)).isNotInstanceOf(MemoryEvent.class);
            assertThat(Canonical.hash(decoded.get(i)))
                    .isEqualTo(Canonical.toArray(chain.get(i).getHash()));
        }
        VerificationResult result = verify(decoded);
        assertThat(result.ok()).isTrue();
        assertThat(result.events()).isEqualTo(50);
    }

    @Test
    void resultMayBeTakenMidStreamAndVerificationContinues() {
        ChainVerifier verifier = new ChainVerifier(SPACE, RING, SignatureMode.checkpoints(1000));
        chain.subList(0, 20).forEach(verifier::accept);

        VerificationResult partial = verifier.result();
        chain.subList(20, 50).forEach(verifier::accept);

        assertThat(partial.ok()).isTrue();
        assertThat(partial.events()).isEqualTo(20);
        assertThat(verifier.result().events()).isEqualTo(50);
        assertThat(verifier.lastSeq()).isEqualTo(50);
    }
}
