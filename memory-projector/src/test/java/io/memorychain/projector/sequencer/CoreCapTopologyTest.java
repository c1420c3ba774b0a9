package io.memorychain.projector.sequencer;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.Tier;
import io.memorychain.domain.core.CoreCapPolicy;
import io.memorychain.domain.core.CoreCapPolicy.Cap;
import io.memorychain.domain.core.CoreCapPolicy.OverCap;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core-memory cap through the sequencer topology (TopologyTestDriver): a refused edit leaves the chain as it was
 * and its outcome names the cap and the current size; a space configured to refine gets the change and an open
 * refinement session in one transaction.
 */
class CoreCapTopologyTest {

    private static final String SPACE = "capped";
    private static final String REFINED = "capped.refine";

    private static ChainHarness harness() {
        return new ChainHarness(WriteSettings.defaults()
                .withCoreCap(new CoreCapPolicy(
                        new Cap(100, OverCap.REJECT), Map.of(REFINED, new Cap(100, OverCap.REFINE)))));
    }

    private static String words(int n) {
        return "fact ".repeat(n).strip();
    }

    @Test
    void refusesACoreEditOverTheCapWithBudgetExceededAndAppendsNothing() {
        try (ChainHarness h = harness()) {
            assertThat(h.submit(Requests.block(SPACE, AGENT, "persona", words(60)))
                            .getAccepted())
                    .isTrue();
            int coreNow = h.views.core(SPACE).tokens();
            int chainBefore = h.chain().size(); // the block and its critical-change alert

            MemoryOutcome refused = h.submit(Requests.block(SPACE, AGENT, "goals", words(60)));

            assertThat(refused.getAccepted()).isFalse();
            assertThat(refused.getCode()).isEqualTo("BUDGET_EXCEEDED");
            assertThat(refused.getMessage()).contains("cap of 100 tokens").contains("is " + coreNow + " tokens now");
            assertThat(h.chain()).hasSize(chainBefore);
            assertThat(h.submit(Requests.create(SPACE, AGENT, words(60))).getAccepted())
                    .as("the working tier is not capped")
                    .isTrue();
        }
    }

    @Test
    void aSpaceConfiguredToRefineAcceptsTheEditAndOpensASessionAtOnce() {
        try (ChainHarness h = harness()) {
            h.submit(Requests.create(
                    REFINED,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setContent(words(60))
                            .setTier(Tier.CORE)
                            .build()));

            MemoryOutcome accepted = h.submit(Requests.create(
                    REFINED,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setContent(words(60) + " more")
                            .setTier(Tier.CORE)
                            .build()));

            assertThat(accepted.getAccepted()).isTrue();
            assertThat(h.chain()).hasSize(3);
            assertThat(h.chain().get(1).getPayload()).isInstanceOf(MemoryCreated.class);
            assertThat(h.chain().get(2).getPayload())
                    .isInstanceOfSatisfying(
                            RefinementStarted.class,
                            s -> assertThat(s.getTargetTokens()).isEqualTo(100));
            assertThat(accepted.getMemoryId())
                    .isEqualTo(((MemoryCreated) h.chain().get(1).getPayload())
                            .getMemory()
                            .getId());
            assertThat(h.views.openRefinement(REFINED)).hasValueSatisfying(s -> {
                assertThat(s.getCoreTokens()).isGreaterThan(100);
                assertThat(s.getStartedBy().getId()).isEqualTo("core-cap");
            });
        }
    }
}
