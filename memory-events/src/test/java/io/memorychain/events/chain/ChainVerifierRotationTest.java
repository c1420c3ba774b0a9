package io.memorychain.events.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.SigningKeyCompromised;
import io.memorychain.avro.SigningKeyRotated;
import io.memorychain.events.chain.VerificationResult.Problem;
import io.memorychain.events.testing.TestChains;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Chains that span a signing-key rotation, forged rotations and compromise marks (docs/architecture.md §4). */
class ChainVerifierRotationTest {

    private static final String SPACE = "alice";
    private static final ChainKeys OLD = ChainKeys.generate();
    private static final ChainKeys NEW = ChainKeys.generate();
    private static final ChainSealer SEALER = new ChainSealer(SigningKeys.of(OLD, NEW));

    private final List<MemoryEvent> chain = new ArrayList<>();

    /** Appends {@code n} memory events sealed by {@code key}. */
    private void write(int n, ChainKeys key) {
        for (int i = 0; i < n; i++) {
            append(TestChains.event(SPACE, nextSeq(), prevHash(), TestChains.content(SPACE, nextSeq())), key);
        }
    }

    private void rotate(ChainKeys from, ChainKeys to, ChainKeys signer) {
        MemoryEvent event = TestChains.event(SPACE, nextSeq(), prevHash(), "x");
        event.setPayload(new SigningKeyRotated(from.keyId(), to.keyId(), ByteBuffer.wrap(to.publicKeyBytes()), "test"));
        append(event, signer);
    }

    private void markCompromised(ChainKeys key, long fromSeq, ChainKeys signer) {
        MemoryEvent event = TestChains.event(SPACE, nextSeq(), prevHash(), "x");
        event.setPayload(new SigningKeyCompromised(key.keyId(), fromSeq, "leaked"));
        append(event, signer);
    }

    private void append(MemoryEvent event, ChainKeys key) {
        chain.add(SEALER.seal(event, key.keyId()));
    }

    private long nextSeq() {
        return chain.size() + 1L;
    }

    private byte[] prevHash() {
        return chain.isEmpty()
                ? Canonical.GENESIS
                : Canonical.toArray(chain.get(chain.size() - 1).getHash());
    }

    private VerificationResult verify(KeyRing ring, SignatureMode mode) {
        ChainVerifier verifier = new ChainVerifier(SPACE, ring, mode);
        chain.forEach(verifier::accept);
        return verifier.result();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4})
    void aChainThatSpansARotationVerifiesOldEventsUnderTheOldKeyAndNewOnesUnderTheNew(int checkpointEvery) {
        write(5, OLD);
        rotate(OLD, NEW, OLD);
        write(5, NEW);
        SignatureMode mode = checkpointEvery == 0 ? SignatureMode.ALL : SignatureMode.checkpoints(checkpointEvery);

        // only the old key is trusted out of band: the new one comes from the rotation, signed by the old
        VerificationResult result = verify(OLD.publicRing(), mode);

        assertThat(result.ok()).as(result.message()).isTrue();
        assertThat(result.events()).isEqualTo(11);
        assertThat(result.suspects()).isEmpty();
        assertThat(chain.subList(0, 6)).allSatisfy(e -> assertThat(e.getKeyId()).isEqualTo(OLD.keyId()));
        assertThat(chain.subList(6, 11))
                .allSatisfy(e -> assertThat(e.getKeyId()).isEqualTo(NEW.keyId()));
    }

    @Test
    void aRotationNotSignedByTheKeyItReplacesIsRefused() {
        write(3, OLD);
        rotate(OLD, NEW, NEW); // names OLD as the key it replaces, but NEW signed it

        VerificationResult result = verify(KeyRing.of(OLD.publicKeyBytes(), NEW.publicKeyBytes()), SignatureMode.ALL);

        assertThat(result.ok()).isFalse();
        assertThat(result.problem()).isEqualTo(Problem.BAD_ROTATION);
        assertThat(result.firstBadSeq()).isEqualTo(4L);
    }

    @Test
    void aRotationByAKeyOtherThanTheChainsCurrentOneIsRefused() {
        ChainKeys third = ChainKeys.generate();
        ChainSealer sealer = new ChainSealer(SigningKeys.of(OLD, NEW, third));
        write(2, OLD);
        rotate(OLD, NEW, OLD);
        // the old key tries to take the chain over again after it was rotated away
        MemoryEvent event = TestChains.event(SPACE, nextSeq(), prevHash(), "x");
        event.setPayload(
                new SigningKeyRotated(OLD.keyId(), third.keyId(), ByteBuffer.wrap(third.publicKeyBytes()), null));
        chain.add(sealer.seal(event, OLD.keyId()));

        VerificationResult result = verify(OLD.publicRing(), SignatureMode.ALL);

        assertThat(result.problem()).isEqualTo(Problem.WRONG_KEY);
        assertThat(result.firstBadSeq()).isEqualTo(4L);
    }

    @Test
    void aRotationWhosePublicKeyDoesNotHashToItsKeyIdIsRefused() {
        write(2, OLD);
        MemoryEvent event = TestChains.event(SPACE, nextSeq(), prevHash(), "x");
        event.setPayload(new SigningKeyRotated(
                OLD.keyId(), NEW.keyId(), ByteBuffer.wrap(ChainKeys.generate().publicKeyBytes()), null));
        append(event, OLD);

        VerificationResult result = verify(OLD.publicRing(), SignatureMode.checkpoints(100));

        assertThat(result.problem()).isEqualTo(Problem.BAD_ROTATION);
        assertThat(result.firstBadSeq()).isEqualTo(3L);
    }

    @Test
    void afterARotationAnEventSignedByTheOldKeyIsAWrongKey() {
        write(2, OLD);
        rotate(OLD, NEW, OLD);
        write(1, NEW);
        write(1, OLD); // the retired key keeps signing: forged, or a sequencer that missed the rotation

        VerificationResult result = verify(OLD.publicRing(), SignatureMode.ALL);

        assertThat(result.problem()).isEqualTo(Problem.WRONG_KEY);
        assertThat(result.firstBadSeq()).isEqualTo(5L);
    }

    @Test
    void eventsSignedByACompromisedKeyAfterTheMarkedSeqAreSuspectNotABreak() {
        write(6, OLD); // 1..6
        rotate(OLD, NEW, OLD); // 7, signed by OLD
        write(2, NEW); // 8..9
        markCompromised(OLD, 4, NEW); // 10: OLD trusted up to seq 4
        write(1, NEW); // 11

        VerificationResult result = verify(OLD.publicRing(), SignatureMode.ALL);

        assertThat(result.ok()).as(result.message()).isTrue();
        assertThat(result.suspects()).containsExactly(new SuspectRange(OLD.keyId(), 5, 7, 4, 10));
        assertThat(result.suspectEvents()).isEqualTo(3);
        assertThat(result.message()).contains("3 suspect event(s)");
    }

    @Test
    void aResumedVerificationKeepsTheRotationAndTheMarks() {
        write(3, OLD);
        rotate(OLD, NEW, OLD);
        write(2, NEW);
        ChainVerifier first = new ChainVerifier(SPACE, OLD.publicRing(), SignatureMode.ALL);
        chain.forEach(first::accept);
        ChainHead head = first.head();
        int verified = chain.size();
        markCompromised(OLD, 1, NEW);
        write(1, OLD); // a retired key after the resume point

        ChainVerifier resumed = ChainVerifier.resuming(
                SPACE,
                OLD.publicRing(),
                SignatureMode.ALL,
                head.result().events(),
                head.seq(),
                head.hash(),
                head.keys());
        chain.subList(verified, chain.size()).forEach(resumed::accept);
        VerificationResult result = resumed.result();

        assertThat(result.problem()).isEqualTo(Problem.WRONG_KEY);
        assertThat(result.firstBadSeq()).isEqualTo(8L);
        assertThat(result.suspects()).containsExactly(new SuspectRange(OLD.keyId(), 2, 4, 1, 7));
    }
}
