package io.memorychain.projector.sequencer;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.SigningKeyCompromised;
import io.memorychain.avro.SigningKeyRotated;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.SuspectRange;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.support.ChainHead;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sequencer rotates a space's signing key and records compromise marks (docs/architecture.md §4). */
class SigningKeyRotationTest {

    private static final String SPACE = "acme-planner";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private void write(String space, String content) {
        MemoryOutcome o = h.submit(Requests.create(space, AGENT, content));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
    }

    private List<MemoryEvent> chainOf(String space) {
        return h.chain().stream().filter(e -> e.getSpace().equals(space)).toList();
    }

    private VerificationResult verify(String space) {
        ChainVerifier verifier = new ChainVerifier(space, h.keys.publicRing(), SignatureMode.ALL);
        chainOf(space).forEach(verifier::accept);
        return verifier.result();
    }

    @Test
    void theRotationEventIsSignedByTheOldKeyAndEveryLaterEventByTheNew() {
        ChainKeys next = h.signingKeys.create();
        write(SPACE, "before 1");
        write(SPACE, "before 2");

        MemoryOutcome rotated = h.submit(Requests.rotateSigningKey(SPACE, ADMIN, next.keyId(), "yearly rotation"));
        write(SPACE, "after 1");
        write(SPACE, "after 2");
        write("other-space", "a space that did not rotate");

        assertThat(rotated.getAccepted()).as(rotated.getMessage()).isTrue();
        assertThat(rotated.getSeq()).isEqualTo(3L);
        assertThat(rotated.getMemoryId()).as("the outcome names the new key").isEqualTo(next.keyId());
        List<MemoryEvent> chain = chainOf(SPACE);
        assertThat(chain)
                .extracting(MemoryEvent::getKeyId)
                .containsExactly(h.keys.keyId(), h.keys.keyId(), h.keys.keyId(), next.keyId(), next.keyId());
        SigningKeyRotated event = (SigningKeyRotated) chain.get(2).getPayload();
        assertThat(event.getPreviousKeyId()).isEqualTo(h.keys.keyId());
        assertThat(event.getNewKeyId()).isEqualTo(next.keyId());
        assertThat(Canonical.toArray(event.getNewPublicKey())).isEqualTo(next.publicKeyBytes());
        assertThat(event.getReason()).isEqualTo("yearly rotation");
        assertThat(next.publicRing()
                        .verify(
                                next.keyId(),
                                Canonical.toArray(chain.get(3).getHash()),
                                Canonical.toArray(chain.get(3).getSignature())))
                .isTrue();
        assertThat(chainOf("other-space")).extracting(MemoryEvent::getKeyId).containsExactly(h.keys.keyId());
        // the current key is a function of the log: the head store holds the last rotation's key
        ChainHead head =
                h.<ChainHead>sequencerStore(SequencerTopology.HEADS_STORE).get(SPACE);
        assertThat(head.signingKeyId()).isEqualTo(next.keyId());
        assertThat(head.retiredKeyIds()).containsExactly(h.keys.keyId());
        // only the old key is trusted out of band; the rotation vouches for the new one
        assertThat(verify(SPACE).ok()).as(verify(SPACE).message()).isTrue();
    }

    @Test
    void onlyAdminsRotateAndOnlyToAKeyTheSequencerHolds() {
        ChainKeys next = h.signingKeys.create();
        write(SPACE, "m");

        assertRejected(h.submit(Requests.rotateSigningKey(SPACE, AGENT, next.keyId(), null)), "FORBIDDEN");
        assertRejected(
                h.submit(Requests.rotateSigningKey(
                        SPACE, ADMIN, ChainKeys.generate().keyId(), null)),
                "NOT_FOUND");
        assertRejected(h.submit(Requests.rotateSigningKey(SPACE, ADMIN, h.keys.keyId(), null)), "INVALID_STATE");
        assertRejected(h.submit(Requests.rotateSigningKey(SPACE, ADMIN, "not-a-key-id", null)), "INVALID_ARGUMENT");
        assertThat(chainOf(SPACE)).hasSize(1);
    }

    @Test
    void aSpaceWithoutAChainHasNoKeyToRotateOrMark() {
        ChainKeys next = h.signingKeys.create();

        assertRejected(h.submit(Requests.rotateSigningKey("no-such-space", ADMIN, next.keyId(), null)), "NOT_FOUND");
        assertRejected(
                h.submit(Requests.markKeyCompromised("no-such-space", ADMIN, h.keys.keyId(), 0, "leaked")),
                "NOT_FOUND");
        assertThat(chainOf("no-such-space")).isEmpty();
    }

    @Test
    void onlyAKeyThatSignedTheSpaceCanBeMarked() {
        ChainKeys next = h.signingKeys.create();
        ChainKeys unused = h.signingKeys.create();
        write(SPACE, "1");
        write("other-space", "signed by the default key too");
        h.submit(Requests.rotateSigningKey("other-space", ADMIN, unused.keyId(), null));

        // a key that signs another space only, and a key no space ever used
        assertRejected(h.submit(Requests.markKeyCompromised(SPACE, ADMIN, unused.keyId(), 0, "leaked")), "NOT_FOUND");
        assertRejected(h.submit(Requests.markKeyCompromised(SPACE, ADMIN, next.keyId(), 0, "leaked")), "NOT_FOUND");
        h.submit(Requests.rotateSigningKey(SPACE, ADMIN, next.keyId(), null));
        MemoryOutcome marked = h.submit(Requests.markKeyCompromised(SPACE, ADMIN, h.keys.keyId(), 0, "leaked"));

        assertThat(marked.getAccepted()).as(marked.getMessage()).isTrue();
        assertThat(marked.getMemoryId()).as("the outcome names the marked key").isEqualTo(h.keys.keyId());
        // and the space never goes back to a key it left (it may be the compromised one, as here)
        assertRejected(h.submit(Requests.rotateSigningKey(SPACE, ADMIN, h.keys.keyId(), null)), "INVALID_STATE");
        assertThat(chainOf(SPACE)).hasSize(3);
    }

    @Test
    void aCompromiseMarkIsAnEventAndTheVerifierReportsTheKeysLaterEventsAsSuspect() {
        ChainKeys next = h.signingKeys.create();
        write(SPACE, "1");
        write(SPACE, "2");
        write(SPACE, "3");
        // the current key cannot be marked: rotate first
        assertRejected(
                h.submit(Requests.markKeyCompromised(SPACE, ADMIN, h.keys.keyId(), 1, "leaked")), "INVALID_STATE");
        h.submit(Requests.rotateSigningKey(SPACE, ADMIN, next.keyId(), "leak")); // seq 4, old key
        assertRejected(
                h.submit(Requests.markKeyCompromised(SPACE, ADMIN, h.keys.keyId(), 9, "leaked")), "INVALID_ARGUMENT");
        assertRejected(h.submit(Requests.markKeyCompromised(SPACE, AGENT, h.keys.keyId(), 1, "leaked")), "FORBIDDEN");

        MemoryOutcome marked = h.submit(Requests.markKeyCompromised(SPACE, ADMIN, h.keys.keyId(), 1, "leaked"));

        assertThat(marked.getAccepted()).as(marked.getMessage()).isTrue();
        MemoryEvent mark = chainOf(SPACE).get(4);
        assertThat(mark.getKeyId()).isEqualTo(next.keyId());
        assertThat(mark.getPayload()).isEqualTo(new SigningKeyCompromised(h.keys.keyId(), 1L, "leaked"));
        VerificationResult result = verify(SPACE);
        assertThat(result.ok()).as(result.message()).isTrue();
        assertThat(result.suspects()).containsExactly(new SuspectRange(h.keys.keyId(), 2, 4, 1, 5));
    }

    private static void assertRejected(MemoryOutcome outcome, String code) {
        assertThat(outcome.getAccepted()).isFalse();
        assertThat(outcome.getCode()).as(outcome.getMessage()).isEqualTo(code);
        assertThat(outcome.getMessage()).isNotBlank();
    }
}
