package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.core.CoreCapPolicy;
import io.memorychain.domain.core.CoreCapPolicy.Cap;
import io.memorychain.domain.core.CoreCapPolicy.OverCap;
import io.memorychain.domain.refinement.Ledger;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core-memory cap: refused over the cap with both numbers, or accepted with a refinement session opened at once.
 */
class CoreCapTest {

    private static Scenario withCap(int tokens, OverCap mode) {
        return new Scenario(WriteSettings.defaults().withCoreCap(new CoreCapPolicy(new Cap(tokens, mode), Map.of())));
    }

    /** About n cl100k tokens of text. */
    private static String words(int n) {
        return "fact ".repeat(n).strip();
    }

    private static CreateMemory core(String content) {
        return CreateMemory.newBuilder().setContent(content).setTier(Tier.CORE).build();
    }

    private int coreTokens(Scenario s) {
        return Ledger.coreTokens(s.model().memories(SPACE));
    }

    @Test
    void refusesABlockEditThatTakesTheCoreOverItsCapNamingTheCapAndTheCurrentSize() {
        Scenario s = withCap(100, OverCap.REJECT);
        s.given(s.request(AGENT, new UpdateBlock("persona", words(60), true)).build());
        int now = coreTokens(s);

        Decision decision = s.when(
                s.request(AGENT, new UpdateBlock("goals", words(60), true)).build());

        assertThat(decision).isInstanceOfSatisfying(Decision.Reject.class, r -> {
            assertThat(r.code()).isEqualTo(RejectionCode.BUDGET_EXCEEDED);
            assertThat(r.message()).contains("cap of 100 tokens").contains("is " + now + " tokens now");
        });
    }

    @Test
    void refusesACoreTierMemoryOverTheCapButAcceptsTheSameTextInTheWorkingTier() {
        Scenario s = withCap(50, OverCap.REJECT);

        assertThat(s.when(s.request(AGENT, core(words(80))).build())).isInstanceOf(Decision.Reject.class);
        assertThat(s.when(s.request(
                                AGENT,
                                CreateMemory.newBuilder().setContent(words(80)).build())
                        .build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void acceptsChangesUnderTheCapAndChangesThatShrinkACoreAlreadyOverIt() {
        Scenario big = withCap(0, OverCap.REJECT); // no cap: build a core of ~150 tokens
        String first = big.given(big.request(AGENT, core(words(75))).build());
        big.given(big.request(AGENT, core(words(75) + " more")).build());
        Scenario s = withCap(100, OverCap.REJECT);
        s.givenEvents(big.events());

        Decision shrink =
                s.when(s.request(AGENT, new DeleteMemory(first, "too long")).build());
        Decision grow = s.when(s.request(AGENT, core("one more fact")).build());

        assertThat(shrink).isNotInstanceOf(Decision.Reject.class);
        assertThat(grow)
                .isInstanceOfSatisfying(
                        Decision.Reject.class, r -> assertThat(r.code()).isEqualTo(RejectionCode.BUDGET_EXCEEDED));
    }

    @Test
    void inRefineModeAcceptsTheChangeAndOpensARefinementSessionInTheSameDecision() {
        Scenario s = withCap(100, OverCap.REFINE);
        s.given(s.request(AGENT, core(words(60))).build());

        Decision decision = s.when(s.request(AGENT, core(words(60) + " again")).build());

        assertThat(decision).isInstanceOfSatisfying(Decision.AcceptAll.class, all -> {
            assertThat(all.events()).hasSize(2);
            Decision.Accept created = all.events().get(0);
            Decision.Accept started = all.events().get(1);
            assertThat(created.payload()).isInstanceOf(MemoryCreated.class);
            assertThat(started.payload()).isInstanceOfSatisfying(RefinementStarted.class, r -> {
                assertThat(r.getTrigger()).isEqualTo(RefinementTrigger.TOKEN_BUDGET);
                assertThat(r.getTargetTokens()).isEqualTo(100);
                assertThat(r.getCoreTokens()).isGreaterThan(100);
                assertThat(r.getLedgerSize()).isEqualTo(2);
            });
            assertThat(started.actor()).isEqualTo(CoreCapCheck.ACTOR);
            assertThat(started.memoryId())
                    .as("the outcome still names the new memory")
                    .isEqualTo(created.memoryId());
        });
    }

    @Test
    void inRefineModeWithASessionOpenOnlyAcceptsTheChange() {
        Scenario s = withCap(100, OverCap.REFINE);
        s.given(s.request(AGENT, core(words(60))).build());
        s.given(s.request(ADMIN, new StartRefinement(RefinementTrigger.ADMIN, null, "tidy"))
                .build());

        Decision decision = s.when(s.request(AGENT, core(words(60) + " again")).build());

        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Accept.class, a -> assertThat(a.payload()).isInstanceOf(MemoryCreated.class));
    }

    @Test
    void decidesTheSameWayOnReplay() {
        Scenario a = withCap(100, OverCap.REJECT);
        Scenario b = withCap(100, OverCap.REJECT);
        for (Scenario s : new Scenario[] {a, b}) {
            s.given(s.request(AGENT, core(words(70))).build());
        }
        b.advance(java.time.Duration.ofDays(400));

        Decision first = a.when(a.request(AGENT, core(words(40))).build());
        Decision second = b.when(b.request(AGENT, core(words(40))).build());

        assertThat(second).isEqualTo(first);
    }

    @Test
    void perSpaceOverridesAndDefaults() {
        CoreCapPolicy policy = new CoreCapPolicy(
                new Cap(3_000, OverCap.REJECT),
                Map.ofEntries(
                        CoreCapPolicy.parseOverride("team.notes=5000:refine", OverCap.REJECT),
                        CoreCapPolicy.parseOverride("solo=0", OverCap.REJECT)));

        assertThat(CoreCapPolicy.defaults().forSpace("any")).isEqualTo(new Cap(3_000, OverCap.REJECT));
        assertThat(policy.forSpace("team.notes")).isEqualTo(new Cap(5_000, OverCap.REFINE));
        assertThat(policy.forSpace("solo").capped()).isFalse();
        assertThatThrownBy(() -> CoreCapPolicy.parseOverride("notes=lots", OverCap.REJECT))
                .hasMessageContaining("space=tokens[:reject|:refine]");
        assertThatThrownBy(() -> CoreCapPolicy.parseOverride("notes=10:later", OverCap.REJECT))
                .hasMessageContaining("reject or refine");
    }
}
