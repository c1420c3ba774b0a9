package io.memorychain.jobs.tom;

import static io.memorychain.jobs.tom.TomEvents.episodic;
import static io.memorychain.jobs.tom.TomEvents.semantic;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TomPlannerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final TomSettings SETTINGS = new TomSettings(3, Duration.ofHours(24), 220);

    private static List<TomRun> feed(TomPlanner planner, List<MemoryEvent> events) {
        List<TomRun> runs = new ArrayList<>();
        events.forEach(e -> planner.onEvent(e).ifPresent(runs::add));
        return runs;
    }

    @Test
    void runsOnceAThreadHasMinItemsAndCoversTheirSeqRange() {
        TomPlanner planner = new TomPlanner(SETTINGS);

        List<TomRun> runs = feed(
                planner,
                List.of(
                        episodic("s", 1, T0, "t1", "User asked for a short answer."),
                        semantic("s", 2, T0.plusSeconds(60), "t1", "User prefers short answers."),
                        episodic("s", 3, T0.plusSeconds(120), "t1", "User thanked the agent after the fix.")));

        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.space()).isEqualTo("s");
            assertThat(run.thread()).isEqualTo("t1");
            assertThat(run.fromSeq()).isEqualTo(1);
            assertThat(run.toSeq()).isEqualTo(3);
            assertThat(run.items()).isEqualTo(3);
            assertThat(run.triggeredAt()).isEqualTo(T0.plusSeconds(120));
            assertThat(run.activity()).hasSize(3);
            assertThat(run.semantic()).containsExactly("User prefers short answers.");
            assertThat(run.snippet())
                    .isEqualTo("User asked for a short answer.\nUser thanked the agent after the fix.");
            assertThat(run.requestId(0)).isEqualTo("tom:s:t1:1-3:0");
        });
    }

    @Test
    void skipsAThreadWithin24HoursOfItsLastRunByChainTimeThenCoversEverythingSince() {
        TomPlanner planner = new TomPlanner(SETTINGS);
        List<MemoryEvent> events = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            events.add(episodic("s", seq, T0.plusSeconds(seq), null, "first day " + seq));
        }
        for (int seq = 4; seq <= 9; seq++) { // 23 hours later: still within the cooldown
            events.add(episodic("s", seq, T0.plus(Duration.ofHours(23)).plusSeconds(seq), null, "later " + seq));
        }
        events.add(episodic("s", 10, T0.plus(Duration.ofHours(24)).plusSeconds(3), null, "next day"));

        List<TomRun> runs = feed(planner, events);

        assertThat(runs)
                .extracting(TomRun::fromSeq, TomRun::toSeq)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, 3L), org.assertj.core.groups.Tuple.tuple(4L, 10L));
        assertThat(runs.get(1).items()).isEqualTo(7);
        assertThat(runs.get(1).activity())
                .hasSize(TomSettings.MAX_ACTIVITY_ITEMS)
                .endsWith("next day")
                .doesNotContain("later 4", "later 5");
        assertThat(runs.get(1).thread()).isEmpty();
        assertThat(runs.get(1).requestId(2)).isEqualTo("tom:s:-:4-10:2");
        assertThat(planner.deferred()).isEqualTo(4); // seq 6..9 found the thread in its cooldown
    }

    @Test
    void keepsThreadsAndSpacesApart() {
        TomPlanner planner = new TomPlanner(SETTINGS);

        List<TomRun> runs = feed(
                planner,
                List.of(
                        episodic("s", 1, T0, "a", "a1"),
                        episodic("s", 2, T0, "b", "b1"),
                        episodic("t", 1, T0, "a", "other"),
                        episodic("s", 3, T0, "a", "a2"),
                        episodic("s", 4, T0, "b", "b2"),
                        episodic("s", 5, T0, "a", "a3")));

        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.fromSeq()).isEqualTo(1);
            assertThat(run.toSeq()).isEqualTo(5);
            assertThat(run.snippet()).isEqualTo("a1\na2\na3");
        });
    }

    @Test
    void ignoresInsightsJournalsAndWorkerWrites() {
        TomPlanner planner = new TomPlanner(new TomSettings(1, Duration.ofHours(24), 220));

        List<TomRun> runs = feed(
                planner,
                List.of(
                        TomEvents.created("s", 1, T0, TomEvents.TOM, MemoryKind.INSIGHT, null, "User values trust."),
                        TomEvents.created("s", 2, T0, TomEvents.AGENT, MemoryKind.JOURNAL, null, "Compressed 3 -> 1"),
                        TomEvents.created(
                                "s", 3, T0, TomEvents.AGENT, MemoryKind.PROCEDURAL, null, "Deploy with make."),
                        TomEvents.created("s", 4, T0, TomEvents.TOM, MemoryKind.SEMANTIC, null, "worker written")));

        assertThat(runs).isEmpty();
        assertThat(planner.threads()).isZero();
    }

    @Test
    void forgetsIdleThreadsWhoseCooldownIsOverWithoutChangingTheRuns() {
        List<MemoryEvent> events = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            events.add(episodic("s", seq, T0.plusSeconds(seq), "old", "old " + seq));
        }
        events.add(episodic("s", 4, T0.plus(Duration.ofHours(25)), "new", "new 1"));
        events.add(episodic("s", 5, T0.plus(Duration.ofHours(25)), "new", "new 2"));
        events.add(episodic("s", 6, T0.plus(Duration.ofHours(25)), "old", "old again 1"));
        events.add(episodic("s", 7, T0.plus(Duration.ofHours(25)), "old", "old again 2"));
        events.add(episodic("s", 8, T0.plus(Duration.ofHours(25)), "old", "old again 3"));
        TomPlanner sweeping = new TomPlanner(SETTINGS, 4);

        List<TomRun> swept = feed(sweeping, events.subList(0, 4));
        assertThat(sweeping.threads())
                .as("'old' ran 25 h ago with nothing pending: forgotten")
                .isEqualTo(1);
        swept.addAll(feed(sweeping, events.subList(4, events.size())));

        assertThat(swept).isEqualTo(feed(new TomPlanner(SETTINGS), events));
        assertThat(swept).extracting(TomRun::toSeq).containsExactly(3L, 8L);
    }

    @Test
    void keepsTheSnippetToTheLast1000Characters() {
        TomPlanner planner = new TomPlanner(new TomSettings(5, Duration.ZERO, 220));
        List<MemoryEvent> events = new ArrayList<>();
        for (int seq = 1; seq <= 5; seq++) {
            events.add(episodic(
                    "s", seq, T0, null, String.valueOf((char) ('a' + seq)).repeat(400)));
        }

        TomRun run = feed(planner, events).get(0);

        assertThat(run.snippet())
                .hasSizeLessThanOrEqualTo(TomSettings.MAX_SNIPPET_CHARS)
                .endsWith("ffff");
    }

    @Test
    void aReplayOfTheSameEventsPlansTheSameRuns() {
        List<MemoryEvent> events = new ArrayList<>();
        for (int seq = 1; seq <= 40; seq++) {
            String thread = seq % 3 == 0 ? "x" : "y";
            events.add(
                    seq % 2 == 0
                            ? semantic("s", seq, T0.plus(Duration.ofHours(seq)), thread, "fact " + seq)
                            : episodic("s", seq, T0.plus(Duration.ofHours(seq)), thread, "talk " + seq));
        }

        List<TomRun> first = feed(new TomPlanner(SETTINGS), events);
        List<TomRun> replay = feed(new TomPlanner(SETTINGS), events);

        assertThat(first).hasSizeGreaterThan(1).isEqualTo(replay);
        assertThat(Optional.of(first.get(0)).map(r -> r.requestId(0))).contains("tom:s:y:1-4:0");
    }
}
