package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.FieldChecks;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.MasterKey;
import io.memorychain.projector.ChainHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The chain's ciphertext is never sealed as a text (docs/architecture.md §4): a client that copies a text off the raw
 * chain (an export, the events topic) and submits it is refused, so readers never decrypt a text into ciphertext.
 */
class CiphertextGuardTest {

    private static final String SPACE = "acme-planner";

    private final ChainHarness h = new ChainHarness(WriteSettings.defaults(), null, MasterKey.generate());

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void theDomainKnowsTheCiphersMarker() {
        assertThat(FieldChecks.CIPHERTEXT_PREFIX).isEqualTo(ContentCipher.PREFIX);
    }

    @Test
    void aTextCopiedOffTheChainIsRefusedAndNothingIsAppended() {
        assertThat(h.submit(Requests.create(SPACE, ChainHarness.AGENT, "Ana drinks green tea"))
                        .getAccepted())
                .isTrue();
        Memory onChain = ((MemoryCreated) h.chain().get(0).getPayload()).getMemory();
        assertThat(onChain.getContent()).startsWith(ContentCipher.PREFIX);

        MemoryOutcome copied = h.submit(Requests.create(SPACE, ChainHarness.AGENT, onChain.getContent()));

        assertThat(copied.getAccepted()).isFalse();
        assertThat(copied.getCode()).isEqualTo("INVALID_ARGUMENT");
        assertThat(copied.getMessage()).contains("ciphertext marker");
        assertThat(h.chain()).hasSize(1);
    }
}
