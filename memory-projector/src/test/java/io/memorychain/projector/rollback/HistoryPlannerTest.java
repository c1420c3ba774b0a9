package io.memorychain.projector.rollback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.Purges;
import io.memorychain.domain.rollback.ChainHistory;
import io.memorychain.domain.rollback.HistoryPlanner;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackPlanException;
import io.memorychain.domain.rollback.RollbackPlanner;
import io.memorychain.domain.rollback.RollbackSpec;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rollback plans read from the views ({@link HistoryPlanner} over {@link ViewChainHistory}) equal the plans of a replay
 * of the chain ({@link RollbackPlanner}), digest included, on random chains of creates, edits, deletions, restores,
 * pins, blocks, links, unlinks, consolidations, erasures and applied rollbacks by several actors.
 */
class HistoryPlannerTest {

    private static final String SPACE = "tm";
    private static final Actor PLANNER = ChainHarness.AGENT;
    private static final Actor SCRIBE = Requests.actor(ActorType.AGENT, "scribe");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final List<Actor> ACTORS = List.of(PLANNER, SCRIBE, USER);
    private static final List<String> TYPES = List.of("related_to", "uses", "depends-on");
    private static final java.util.concurrent.atomic.AtomicInteger purged =
            new java.util.concurrent.atomic.AtomicInteger();

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void plansFromTheViewsEqualPlansFromAReplayOfTheChain(long seed) {
        Random random = new Random(seed);
        try (ChainHarness h = new ChainHarness()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                step(h, random, ids);
            }
            long head = h.views.appliedSeq(SPACE);
            assertThat(head).isGreaterThan(40);
            List<RollbackSpec> specs = new ArrayList<>();
            for (long seq : new long[] {0, 1, head / 2, head - 1, head, head + 1}) {
                specs.add(RollbackSpec.space(seq));
            }
            for (int i = 0; i < 6; i++) {
                specs.add(RollbackSpec.space(random.nextLong(head + 1)));
            }
            List<MemoryEvent> chain = h.chain();
            specs.add(RollbackSpec.spaceAt(chain.get(0).getOccurredAt().minusSeconds(1)));
            for (int i = 0; i < 4; i++) {
                Instant at = chain.get(random.nextInt(chain.size())).getOccurredAt();
                specs.add(RollbackSpec.spaceAt(random.nextBoolean() ? at : at.plusMillis(1)));
            }
            specs.add(RollbackSpec.spaceAt(chain.get(chain.size() - 1).getOccurredAt()));
            for (int i = 0; i < 6; i++) {
                specs.add(RollbackSpec.memory(ids.get(random.nextInt(ids.size())), random.nextLong(head + 1)));
            }
            specs.add(RollbackSpec.memory("m-unknown", 1));
            for (Actor actor : ACTORS) {
                long from = 1 + random.nextLong(head);
                specs.add(RollbackSpec.actor(actor.getId(), from, null));
                specs.add(RollbackSpec.actor(
                        actor.getType().name().toLowerCase(java.util.Locale.ROOT) + ":" + actor.getId(),
                        from,
                        from + random.nextLong(head - from + 1)));
            }
            specs.add(RollbackSpec.actor("scribe", head + 1, null));
            long compared = specs.stream()
                    .filter(spec -> assertSamePlan(h, spec, chain))
                    .count();
            assertThat(compared)
                    .as("plans that change something, compared whole")
                    .isGreaterThanOrEqualTo(8);
        }
    }

    @Test
    void aSpaceWhoseFirstEventsWereProjectedBeforeTheEdgeHistoryIsPlannedByReplay() {
        try (ChainHarness h = new ChainHarness();
                ChainHarness later = new ChainHarness()) {
            Random random = new Random(42);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                step(h, random, ids);
            }
            assertThat(ViewChainHistory.of(h.views, SPACE)).isPresent();
            // the same chain projected from its second event on, as views kept from before the edge history see it
            h.chain().stream().skip(1).forEach(later::replayIntoProjection);
            assertThat(later.views.appliedSeq(SPACE)).isEqualTo(h.views.appliedSeq(SPACE));
            assertThat(ViewChainHistory.of(later.views, SPACE)).isEmpty();
        }
    }

    @Test
    void sessionAndReflectionRollbacksAreLeftToTheReplay() {
        try (ChainHarness h = new ChainHarness()) {
            h.submit(Requests.create(SPACE, PLANNER, "one"));
            ChainHistory history = ViewChainHistory.of(h.views, SPACE).orElseThrow();
            assertThat(HistoryPlanner.plan(SPACE, RollbackSpec.session("s1"), history))
                    .isEmpty();
            assertThat(HistoryPlanner.plan(SPACE, RollbackSpec.reflection("r1"), history))
                    .isEmpty();
        }
    }

    /** @return whether the plans were compared whole and change something */
    private static boolean assertSamePlan(ChainHarness h, RollbackSpec spec, List<MemoryEvent> chain) {
        Supplier<RollbackPlan> views = () -> HistoryPlanner.plan(
                        SPACE, spec, ViewChainHistory.of(h.views, SPACE).orElseThrow())
                .orElseThrow();
        RollbackPlan expected;
        try {
            expected = RollbackPlanner.plan(SPACE, spec, chain);
        } catch (RollbackPlanException e) {
            assertThatThrownBy(views::get)
                    .as(spec.toString())
                    .isInstanceOf(RollbackPlanException.class)
                    .hasMessage(e.getMessage());
            return false;
        }
        RollbackPlan actual = views.get();
        assertThat(summary(actual)).as(spec.toString()).isEqualTo(summary(expected));
        if (actual.memories().stream().anyMatch(m -> Purges.isPurged(m.current()))) {
            // an erased memory's text reads as the views' purge marker here and as the chain's erased marker there;
            // the sequencer refuses such a plan whatever its digest (a rollback cannot bring a purged memory back)
            return false;
        }
        assertThat(withoutEventsRead(actual)).as(spec.toString()).isEqualTo(withoutEventsRead(expected));
        assertThat(actual.eventsRead())
                .as("events read after the target")
                .isEqualTo(actual.headSeq() - actual.targetSeq());
        return !actual.isEmpty();
    }

    /** The plan in a line a failure can show: target, head, each change. */
    private static String summary(RollbackPlan p) {
        StringBuilder out = new StringBuilder(p.targetSeq() + ".." + p.headSeq() + " " + p.rangeToSeq());
        p.memories()
                .forEach(m -> out.append(' ')
                        .append(m.memoryId())
                        .append(':')
                        .append(m.action())
                        .append(
                                m.target() == null
                                        ? ""
                                        : "@" + m.target().getVersion() + "/"
                                                + m.target().getState())
                        .append("<-v")
                        .append(m.current().getVersion()));
        p.edges()
                .forEach(e -> out.append(' ')
                        .append(e.fromId())
                        .append('>')
                        .append(e.toId())
                        .append(':')
                        .append(e.currentType())
                        .append("->")
                        .append(e.targetType())
                        .append('/')
                        .append(e.targetStrength()));
        return out.toString();
    }

    private static RollbackPlan withoutEventsRead(RollbackPlan p) {
        return new RollbackPlan(
                p.space(),
                p.scope(),
                p.scopeId(),
                p.targetSeq(),
                p.targetTime(),
                p.rangeToSeq(),
                p.headSeq(),
                0,
                p.memories(),
                p.edges(),
                p.digest());
    }

    /** One random request; refused ones (a link that exists, an edit of a deleted memory) are part of the mix. */
    private static void step(ChainHarness h, Random random, List<String> ids) {
        h.advance(Duration.ofMillis(random.nextInt(3) * 500L));
        Actor actor = ACTORS.get(random.nextInt(ACTORS.size()));
        int op = ids.size() < 4 ? 0 : random.nextInt(13);
        String a = ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
        String b = ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
        MemoryOutcome outcome = switch (op) {
            case 0, 1 -> h.submit(Requests.create(SPACE, actor, "note " + random.nextInt(1000)));
            case 2, 3 -> h.submit(Requests.updateContent(SPACE, actor, a, "edited " + random.nextInt(1000)));
            case 4 -> h.submit(Requests.delete(SPACE, actor, a));
            case 5 -> h.submit(Requests.restore(SPACE, actor, a));
            case 6 -> h.submit(Requests.flag(SPACE, actor, a, MemoryFlag.PINNED, random.nextBoolean()));
            case 7 ->
                h.submit(Requests.block(
                        SPACE, actor, random.nextBoolean() ? "persona" : "human", "b" + random.nextInt(100)));
            case 8, 9 ->
                h.submit(Requests.link(
                        SPACE, actor, a, b, TYPES.get(random.nextInt(TYPES.size())), (1 + random.nextInt(10)) / 10.0));
            case 10 -> h.submit(Requests.unlink(SPACE, actor, a, b));
            case 11 -> h.submit(Requests.consolidate(SPACE, actor, List.of(a, b), "merged", "dedupe"));
            default ->
                random.nextInt(4) == 0
                        ? h.submit(Requests.erase(SPACE, ChainHarness.ADMIN, a, "asked to forget"))
                        : rollBack(h, random);
        };
        if (outcome != null && outcome.getAccepted() && op <= 1) {
            ids.add(outcome.getMemoryId());
        }
    }

    /** Applies a rollback of the space to a random seq, planned by the replay, when it changes something. */
    private static MemoryOutcome rollBack(ChainHarness h, Random random) {
        long head = h.views.appliedSeq(SPACE);
        RollbackPlan plan = RollbackPlanner.plan(SPACE, RollbackSpec.space(random.nextLong(head + 1)), h.chain());
        return plan.isEmpty() ? null : h.submit(Requests.request(SPACE, ChainHarness.ADMIN, plan.toRequest("undo")));
    }
}
