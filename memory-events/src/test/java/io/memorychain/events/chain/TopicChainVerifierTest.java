package io.memorychain.events.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.VerificationResult.Problem;
import io.memorychain.events.testing.TestChains;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicChainVerifierTest {

    private static final ChainKeys KEYS = ChainKeys.generate();
    private static final ChainSealer SEALER = new ChainSealer(KEYS);

    @Test
    void verifiesInterleavedSpacesIndependently() {
        List<MemoryEvent> a = TestChains.sealedChain(SEALER, "a", 30);
        List<MemoryEvent> b = TestChains.sealedChain(SEALER, "b", 20);
        List<MemoryEvent> c = TestChains.sealedChain(SEALER, "c", 10);
        TestChains.memory(b.get(14)).setContent("forged");
        TopicChainVerifier verifier = new TopicChainVerifier(KEYS.publicRing(), SignatureMode.ALL);

        for (int i = 0; i < 30; i++) {
            verifier.accept("a", a.get(i));
            if (i < b.size()) {
                verifier.accept("b", b.get(i));
            }
            if (i < c.size()) {
                verifier.accept("c", c.get(i));
            }
        }
        verifier.acceptUndecodable("c", "truncated");
        Map<String, VerificationResult> results = verifier.results();

        assertThat(results).containsOnlyKeys("a", "b", "c");
        assertThat(results.get("a").ok()).isTrue();
        assertThat(results.get("a").events()).isEqualTo(30);
        assertThat(results.get("b").problem()).isEqualTo(Problem.BAD_HASH);
        assertThat(results.get("b").firstBadSeq()).isEqualTo(15L);
        assertThat(results.get("c").problem()).isEqualTo(Problem.UNDECODABLE);
        assertThat(results.get("c").firstBadSeq()).isEqualTo(11L);
        assertThat(verifier.isBroken("b")).isTrue();
        assertThat(verifier.isBroken("a")).isFalse();
        assertThat(verifier.records()).isEqualTo(61);
        assertThat(verifier.spaces()).isEqualTo(3);
    }
}
