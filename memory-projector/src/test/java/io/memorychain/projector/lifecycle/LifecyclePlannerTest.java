package io.memorychain.projector.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.view.AccessStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lifecycle worker's decisions as a pure function of a snapshot, its reads and the time. */
class LifecyclePlannerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private final LifecyclePlanner planner = new LifecyclePlanner(LifecycleSettings.defaults());

    private static Memory.Builder memory() {
        return Memory.newBuilder()
                .setId("m1")
                .setSpace("s")
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setContent("x")
                .setTags(List.of())
                .setConfidence(Confidence.MEDIUM)
                .setCreatedAt(T0)
                .setUpdatedAt(T0)
                .setVersion(4)
                .setState(MemoryState.ACTIVE)
                .setSupersedes(List.of())
                .setContentHash("h");
    }

    @Test
    void aConstitutionalMemoryStaysDormantInsteadOfBeingArchived() {
        Memory dormant = memory().setConstitutional(true)
                .setDecayStatus(DecayStatus.DORMANT)
                .build();

        assertThat(planner.plan("s", dormant, null, T0.plus(Duration.ofDays(300))))
                .isEmpty();
    }

    @Test
    void goesDownOneStepPerCheckButStraightUpWhenReinforced() {
        Memory active = memory().build();
        Memory dormant = memory().setDecayStatus(DecayStatus.DORMANT).build();
        Instant later = T0.plus(Duration.ofDays(300));

        assertThat(planner.plan("s", active, null, later))
                .get()
                .satisfies(p -> assertThat(((TransitionDecay) p.op()).getTo()).isEqualTo(DecayStatus.FADING))
                .satisfies(p -> assertThat(p.requestId()).isEqualTo("decay:s:m1:4:fading"))
                .satisfies(p -> assertThat(p.expectedVersion()).isEqualTo(4));
        assertThat(planner.plan("s", dormant, new AccessStats(3L, later), later))
                .get()
                .satisfies(p -> assertThat(((TransitionDecay) p.op()).getTo()).isEqualTo(DecayStatus.ACTIVE));
    }

    @Test
    void theDecayClockIsTheChainTimeNotTheImportedCreatedAt() {
        Memory imported = memory().setCreatedAt(T0.minus(Duration.ofDays(900))).build();

        assertThat(planner.plan("s", imported, null, T0.plus(Duration.ofDays(1))))
                .isEmpty();
    }

    @Test
    void lambdaZeroTurnsDecayTransitionsOff() {
        LifecyclePlanner off = new LifecyclePlanner(new LifecycleSettings(
                0,
                LifecycleSettings.Thresholds.SEED,
                Duration.ofMinutes(1),
                io.memorychain.domain.category.CategoryPolicy.unrestricted()));

        assertThat(off.plan("s", memory().build(), null, T0.plus(Duration.ofDays(900))))
                .isEmpty();
    }

    @Test
    void thresholdsMustBeOrdered() {
        assertThatThrownBy(() -> new LifecycleSettings.Thresholds(0.2, 0.5, 0.05))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(LifecycleSettings.Thresholds.SEED.status(0.049)).isEqualTo(DecayStatus.ARCHIVED);
        assertThat(LifecycleSettings.Thresholds.SEED.status(0.5)).isEqualTo(DecayStatus.ACTIVE);
    }
}
