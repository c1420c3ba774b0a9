package io.memorychain.jobs.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.embeddings.EmbeddingModel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsolidatePlannerTest {

    /** The planner's rules on synthetic cosines, with the band calibrated for MiniLM (0.80, 0.99). */
    private static final ConsolidateSettings MINILM_BAND =
            ConsolidateSettings.forModel(EmbeddingModel.MINILM.thresholds());

    static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    /** A unit vector at cosine {@code score} from {@link #base()}. */
    static float[] at(double score) {
        double angle = Math.acos(score);
        return new float[] {(float) Math.cos(angle), (float) Math.sin(angle)};
    }

    static float[] base() {
        return new float[] {1f, 0f};
    }

    static MemoryItem item(String id, String content, float[] vector) {
        return new MemoryItem(
                id,
                1,
                true,
                content,
                1,
                true,
                false,
                false,
                NOW.minus(Duration.ofHours(1)),
                NOW.minus(Duration.ofHours(1)),
                vector);
    }

    static MemoryItem old(String id, String content, float[] vector, Duration age, int importance) {
        return new MemoryItem(
                id, 2, true, content, importance, true, false, false, NOW.minus(age), NOW.minus(age), vector);
    }

    private final ConsolidatePlanner planner = new ConsolidatePlanner(MINILM_BAND);

    @Test
    void nearExactPairsMergeWithoutAModelAndBandPairsNeedASharedWordOrANumericStep() {
        List<MemoryItem> memories = List.of(
                item("m1", "Alice is allergic to peanuts.", base()),
                item("m2", "alice is allergic to peanuts", at(0.995)),
                item("m3", "Alice has a peanut allergy.", base()),
                old("m4", "Alice cannot eat peanut butter.", at(0.90), Duration.ofDays(10), 1),
                item("m5", "Runs 5 km daily.", base()),
                old("m6", "Runs 10 km daily.", at(0.85), Duration.ofDays(10), 1),
                item("m7", "Bob likes jazz.", base()),
                old("m8", "Carol owns a boat.", at(0.85), Duration.ofDays(10), 1));
        // m1, m3, m5, m7 share the base vector too: they pair with each other at cosine 1.0 unless words differ...
        // keep each group in its own space to isolate them
        ConsolidatePlanner.Plan plan = new ConsolidatePlanner(MINILM_BAND)
                .plan("s", memories.subList(0, 2), NOW)
                .orElseThrow();
        assertThat(plan.nearExact()).singleElement().satisfies(p -> {
            assertThat(p.a().id()).isEqualTo("m1");
            assertThat(p.b().id()).isEqualTo("m2");
            assertThat(p.signal()).isEqualTo(ConsolidatePlanner.Signal.NEAR_EXACT);
        });
        assertThat(plan.toCheck()).isEmpty();

        plan = new ConsolidatePlanner(MINILM_BAND)
                .plan("s", memories.subList(2, 4), NOW)
                .orElseThrow();
        assertThat(plan.nearExact()).isEmpty();
        assertThat(plan.toCheck())
                .singleElement()
                .satisfies(p -> assertThat(p.signal()).isEqualTo(ConsolidatePlanner.Signal.LEXICAL));

        plan = new ConsolidatePlanner(MINILM_BAND)
                .plan("s", memories.subList(4, 6), NOW)
                .orElseThrow();
        assertThat(plan.toCheck())
                .singleElement()
                .satisfies(p -> assertThat(p.signal()).isEqualTo(ConsolidatePlanner.Signal.NUMERIC_STEP));

        plan = new ConsolidatePlanner(MINILM_BAND)
                .plan("s", memories.subList(6, 8), NOW)
                .orElseThrow();
        assertThat(plan.toCheck()).as("in the band but no shared content word").isEmpty();
        assertThat(plan.nearExact()).isEmpty();
    }

    @Test
    void copiesDifferingOnlyInCasePunctuationOrSpacesAreNearExactWhateverTheirCosine() {
        ConsolidatePlanner.Plan plan = planner.plan(
                        "s",
                        List.of(
                                item("a", "Project Atlas uses PostgreSQL 16.", base()),
                                item("b", "project atlas uses  postgresql 16", at(0.931))),
                        NOW)
                .orElseThrow();
        assertThat(plan.nearExact())
                .singleElement()
                .satisfies(p -> assertThat(p.signal()).isEqualTo(ConsolidatePlanner.Signal.NEAR_EXACT));
        assertThat(ConsolidatePlanner.normalized("The user's dog, Rex!")).isEqualTo("the user s dog rex");
    }

    @Test
    void pairsBelowTheBandAreNotConsidered() {
        ConsolidatePlanner.Plan plan = planner.plan(
                        "s",
                        List.of(item("a", "Alice likes tea.", base()), item("b", "Alice likes tea a lot.", at(0.79))),
                        NOW)
                .orElseThrow();
        assertThat(plan.considered()).isZero();
    }

    @Test
    void thePoolIsRecentOrImportantAndConstitutionalPinnedInactiveOrOtherKindsAreNeverTouched() {
        MemoryItem pool = item("a", "Alice likes tea.", base());
        MemoryItem oldUnimportant = old("b", "Alice likes tea.", base(), Duration.ofDays(5), 2);
        MemoryItem oldImportant = old("c", "Alice likes green tea.", at(0.9), Duration.ofDays(5), 3);
        MemoryItem tooOld = old("d", "Alice likes tea.", base(), Duration.ofDays(91), 5);
        MemoryItem constitutional =
                new MemoryItem("e", 1, true, "Alice likes tea.", 1, true, true, false, NOW, NOW, base());
        MemoryItem pinned = new MemoryItem("f", 1, true, "Alice likes tea.", 1, true, false, true, NOW, NOW, base());
        MemoryItem episodic =
                new MemoryItem("g", 1, false, "Alice likes tea.", 1, true, false, false, NOW, NOW, base());
        MemoryItem deleted = new MemoryItem("h", 1, true, "Alice likes tea.", 1, false, false, false, NOW, NOW, base());
        MemoryItem unembedded = item("i", "Alice likes tea.", null);

        ConsolidatePlanner.Plan plan = planner.plan(
                        "s",
                        List.of(
                                oldUnimportant,
                                oldImportant,
                                tooOld,
                                constitutional,
                                pinned,
                                episodic,
                                deleted,
                                unembedded,
                                pool),
                        NOW)
                .orElseThrow();

        assertThat(plan.pool()).as("a (recent) and c (importance 3)").isEqualTo(2);
        // a~b near-exact (b is a partner though outside the pool); c's best partners are a and b, a is taken
        assertThat(plan.nearExact()).extracting(p -> p.a().id() + p.b().id()).containsExactly("ab");
        assertThat(plan.toCheck()).isEmpty();
        assertThat(plan.capped()).as("c~a (a already merged); c~b (b taken)").isEqualTo(2);
    }

    /** A unit vector along axis {@code i} of 10: memories on different axes are unrelated (cosine 0). */
    private static float[] axis(int i) {
        float[] v = new float[10];
        v[i] = 1f;
        return v;
    }

    @Test
    void anOldUnimportantMemoryInTheTopDecileOfReadsJoinsThePoolAndARarelyReadOneDoesNot() {
        Duration age = Duration.ofDays(20); // outside the 72 h window
        List<MemoryItem> memories = new ArrayList<>(List.of(
                old("hot", "Alice takes her coffee black.", axis(0), age, 1),
                old("hot-twin", "alice takes her coffee black", axis(0), age, 1),
                old("cold", "Bob rides a red bicycle.", axis(1), age, 1),
                old("cold-twin", "bob rides a red bicycle", axis(1), age, 1)));
        for (int i = 2; i < 8; i++) {
            memories.add(old("filler" + i, "Unrelated fact number " + (char) ('a' + i) + ".", axis(i), age, 1));
        }
        Map<String, Long> reads = new HashMap<>(Map.of("hot", 40L, "cold", 3L));
        for (int i = 2; i < 8; i++) {
            reads.put("filler" + i, 2L);
        }

        ConsolidatePlanner.Plan plan = new ConsolidatePlanner(MINILM_BAND)
                .plan("s", memories, id -> reads.getOrDefault(id, 0L), NOW)
                .orElseThrow();

        assertThat(plan.pool())
                .as("10 memories: the top decile is the one read 40 times")
                .isEqualTo(1);
        assertThat(plan.nearExact())
                .extracting(p -> p.a().id() + "+" + p.b().id())
                .as("the frequently read old copy is merged; the copy read 3 times is not a candidate")
                .containsExactly("hot+hot-twin");
        assertThat(plan.toCheck()).isEmpty();

        ConsolidatePlanner.Plan unread =
                new ConsolidatePlanner(MINILM_BAND).plan("s", memories, NOW).orElseThrow();
        assertThat(unread.pool())
                .as("without reads the same old, unimportant memories are no candidates")
                .isZero();
        assertThat(unread.nearExact()).isEmpty();
    }

    @Test
    void theTopDecileIncludesTiesAtItsEdgeAndNeverAMemoryNeverRead() {
        List<MemoryItem> twenty = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            twenty.add(old("m" + i, "fact " + i, axis(i % 10), Duration.ofDays(20), 1));
        }
        Map<String, Long> reads = Map.of("m0", 9L, "m1", 5L, "m2", 5L, "m3", 1L);
        assertThat(ConsolidatePlanner.frequentlyRead(twenty, id -> reads.getOrDefault(id, 0L)))
                .as("ceil(20 / 10) = 2: the second most read has 5 reads, so both with 5 are in")
                .containsExactlyInAnyOrder("m0", "m1", "m2");
        assertThat(ConsolidatePlanner.frequentlyRead(twenty, id -> 0L))
                .as("nobody read anything")
                .isEmpty();
    }

    @Test
    void eachMemoryIsInAtMostOnePairAndTheCapBoundsThePairs() {
        List<MemoryItem> memories = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            memories.add(item(String.format("m%02d", i), "Alice fact " + i, at(0.80 + i * 0.005)));
        }
        ConsolidatePlanner capped = new ConsolidatePlanner(MINILM_BAND.withMaxPairs(4));
        ConsolidatePlanner.Plan plan = capped.plan("s", memories, NOW).orElseThrow();
        List<ConsolidatePlanner.Pair> all = new ArrayList<>(plan.nearExact());
        all.addAll(plan.toCheck());
        assertThat(all).hasSize(4);
        assertThat(all.stream().flatMap(p -> java.util.stream.Stream.of(p.a().id(), p.b().id())))
                .doesNotHaveDuplicates();
    }

    @Test
    void runsAtMostOncePerIntervalOfChainTime() {
        List<MemoryItem> memories = List.of(item("a", "Alice likes tea.", base()));
        assertThat(planner.plan("s", memories, NOW)).isPresent();
        assertThat(planner.plan("s", memories, NOW.plus(Duration.ofHours(23)))).isEmpty();
        assertThat(planner.plan("s", memories, NOW.plus(Duration.ofHours(24)))).isPresent();
    }

    @Test
    void fingerprintsKeepAPairFromBeingPlannedAgainFor14Days() {
        List<MemoryItem> memories =
                List.of(item("a", "Alice likes tea.", base()), item("b", "Alice likes green tea.", at(0.9)));
        assertThat(planner.plan("s", memories, NOW).orElseThrow().toCheck()).hasSize(1);
        ConsolidatePlanner.Plan second =
                planner.plan("s", memories, NOW.plus(Duration.ofDays(1))).orElseThrow();
        assertThat(second.toCheck()).isEmpty();
        assertThat(second.remembered()).isEqualTo(1);
        // 14 days later the pair (still recent enough: its memories were rewritten) is planned again
        List<MemoryItem> rewritten = memories.stream()
                .map(m -> new MemoryItem(
                        m.id(),
                        m.version(),
                        true,
                        m.content(),
                        3,
                        true,
                        false,
                        false,
                        m.createdAt(),
                        m.updatedAt(),
                        m.vector()))
                .toList();
        assertThat(planner.plan("s", rewritten, NOW.plus(Duration.ofDays(14)))
                        .orElseThrow()
                        .toCheck())
                .hasSize(1);
    }

    @Test
    void aReplayPlansTheSameRuns() {
        List<MemoryItem> memories = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            memories.add(item("m" + i, "Alice fact " + (i % 4), at(0.78 + (i % 5) * 0.05)));
        }
        ConsolidatePlanner first = new ConsolidatePlanner(MINILM_BAND.withMaxPairs(3));
        ConsolidatePlanner replay = new ConsolidatePlanner(MINILM_BAND.withMaxPairs(3));
        List<MemoryItem> shuffled = new ArrayList<>(memories);
        java.util.Collections.reverse(shuffled);
        for (int day = 0; day < 3; day++) {
            Instant at = NOW.plus(Duration.ofDays(day));
            assertThat(replay.plan("s", shuffled, at)).isEqualTo(first.plan("s", memories, at));
        }
    }

    @Test
    void lexicalAndNumericPrefilters() {
        assertThat(ConsolidatePlanner.numericStep("Runs 5 km daily.", "runs 10 km daily."))
                .isTrue();
        assertThat(ConsolidatePlanner.numericStep("Runs 5 km daily.", "Runs 5 km daily."))
                .isFalse();
        assertThat(ConsolidatePlanner.numericStep("Runs 5 km daily.", "Walks 5 km daily."))
                .isFalse();
        assertThat(ConsolidatePlanner.sharesContentWord("The user likes tea.", "User drinks tea"))
                .isTrue();
        assertThat(ConsolidatePlanner.sharesContentWord("The user likes tea.", "The user owns a boat"))
                .isFalse();
    }
}
