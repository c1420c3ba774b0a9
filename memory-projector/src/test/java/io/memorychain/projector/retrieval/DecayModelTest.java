package io.memorychain.projector.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.projector.retrieval.DecayModel.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecayModelTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final DecayModel decay = DecayModel.standard();

    private static Memory memory(MemoryKind kind, Tier tier, Confidence confidence, boolean pinned) {
        return Memory.newBuilder()
                .setId("m1")
                .setSpace("s")
                .setKind(kind)
                .setTier(tier)
                .setContent("x")
                .setConfidence(confidence)
                .setCreatedAt(T0)
                .setUpdatedAt(T0)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setPinned(pinned)
                .setContentHash("h")
                .build();
    }

    private static Instant days(double d) {
        return T0.plus(Duration.ofMillis((long) (d * 86_400_000)));
    }

    @Test
    void followsTheSeedFormula() {
        Memory m = memory(MemoryKind.SEMANTIC, Tier.WORKING, Confidence.HIGH, false);
        // base 1.0, 10 days, 3 reads (+1 for the write), semantic 1.2
        double expected = 1.0 * Math.exp(-0.03 * 10) * (Math.log(5) / Math.log(2)) * 1.2;
        assertThat(decay.score(m, T0, 3, days(10))).isCloseTo(expected, within(1e-9));
    }

    @Test
    void aFreshUnreadMemoryIsActive() {
        Memory m = memory(MemoryKind.EPISODIC, Tier.WORKING, Confidence.MEDIUM, false);
        assertThat(decay.status(m, null, 0, T0)).isEqualTo(Status.ACTIVE);
    }

    @Test
    void unreadMemoriesFadeThenGoDormantThenArchivedOverTime() {
        Memory m = memory(MemoryKind.EPISODIC, Tier.WORKING, Confidence.MEDIUM, false);
        assertThat(List.of(0, 30, 60, 150).stream()
                        .map(d -> decay.status(m, null, 0, days(d)))
                        .toList())
                .containsExactly(Status.ACTIVE, Status.FADING, Status.DORMANT, Status.ARCHIVED);
    }

    @Test
    void accessReinforces() {
        Memory m = memory(MemoryKind.SEMANTIC, Tier.WORKING, Confidence.MEDIUM, false);
        Instant now = days(60);
        assertThat(decay.score(m, days(59), 10, now)).isGreaterThan(decay.score(m, null, 0, now));
    }

    @Test
    void coreDecaysSlowerThanSemanticSlowerThanProceduralSlowerThanEpisodic() {
        Instant now = days(20);
        double core = decay.score(memory(MemoryKind.EPISODIC, Tier.CORE, Confidence.MEDIUM, false), null, 0, now);
        double semantic =
                decay.score(memory(MemoryKind.SEMANTIC, Tier.WORKING, Confidence.MEDIUM, false), null, 0, now);
        double procedural =
                decay.score(memory(MemoryKind.PROCEDURAL, Tier.WORKING, Confidence.MEDIUM, false), null, 0, now);
        double episodic =
                decay.score(memory(MemoryKind.EPISODIC, Tier.WORKING, Confidence.MEDIUM, false), null, 0, now);
        assertThat(List.of(core, semantic, procedural, episodic)).isSortedAccordingTo((a, b) -> Double.compare(b, a));
    }

    @Test
    void pinnedMemoriesNeverDecay() {
        Memory m = memory(MemoryKind.EPISODIC, Tier.WORKING, Confidence.LOW, true);
        assertThat(decay.score(m, null, 0, days(10_000))).isInfinite();
        assertThat(decay.status(m, null, 0, days(10_000))).isEqualTo(Status.ACTIVE);
    }

    @Test
    void thresholdsMatchTheSeed() {
        assertThat(Status.of(0.5)).isEqualTo(Status.ACTIVE);
        assertThat(Status.of(0.49)).isEqualTo(Status.FADING);
        assertThat(Status.of(0.2)).isEqualTo(Status.FADING);
        assertThat(Status.of(0.19)).isEqualTo(Status.DORMANT);
        assertThat(Status.of(0.05)).isEqualTo(Status.DORMANT);
        assertThat(Status.of(0.049)).isEqualTo(Status.ARCHIVED);
    }

    @Test
    void anAccessOlderThanTheLastUpdateCountsFromTheUpdate() {
        Memory m = memory(MemoryKind.SEMANTIC, Tier.WORKING, Confidence.HIGH, false);
        Memory updated = Memory.newBuilder(m).setUpdatedAt(days(30)).build();
        assertThat(decay.score(updated, days(1), 1, days(30))).isEqualTo(decay.score(updated, null, 1, days(30)));
    }
}
