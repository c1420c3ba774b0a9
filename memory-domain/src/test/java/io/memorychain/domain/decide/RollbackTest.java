package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CompleteRefinement;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RollbackApplied;
import io.memorychain.avro.RollbackSpace;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackPlanException;
import io.memorychain.domain.rollback.RollbackPlanner;
import io.memorychain.domain.rollback.RollbackSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The time machine (docs/architecture.md §17): plans computed by replaying an in-memory chain, and the RollbackSpace
 * decisions; given/when/then over the pure write model.
 */
class RollbackTest {

    private final Scenario s = new Scenario();

    private static CreateMemory memory(String content) {
        return CreateMemory.newBuilder().setContent(content).build();
    }

    private static CreateMemory core(String content) {
        return CreateMemory.newBuilder().setContent(content).setTier(Tier.CORE).build();
    }

    private RollbackPlan plan(RollbackSpec spec) {
        return RollbackPlanner.plan(SPACE, spec, s.events());
    }

    /** Applies the plan as the admin; it must be accepted. */
    private void apply(RollbackPlan plan) {
        s.given(s.request(ADMIN, plan.toRequest("undo the bad import")).build());
    }

    /** The memories a replay of the chain's first {@code seq} events leaves visible, version-independent. */
    private Map<String, String> visibleAt(long seq) {
        InMemoryWriteModel replay = new InMemoryWriteModel();
        s.events().stream().filter(e -> e.getSeq() <= seq).forEach(e -> WriteModelEvolution.apply(e, replay));
        return visible(replay);
    }

    private Map<String, String> visibleNow() {
        return visible(s.model());
    }

    private static Map<String, String> visible(InMemoryWriteModel model) {
        Map<String, String> out = new TreeMap<>();
        for (Memory m : model.memories(SPACE)) {
            if (m.getState() == MemoryState.ACTIVE) {
                out.put(
                        m.getId(),
                        m.getContent() + "|" + m.getTier() + "|" + m.getImportance() + "|" + m.getTags() + "|"
                                + m.getConstitutional() + "|" + m.getPinned());
            }
        }
        return out;
    }

    private static void assertRejected(Decision decision, RejectionCode code) {
        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Reject.class, r -> assertThat(r.code()).isEqualTo(code));
    }

    @Test
    void aSpaceRollbackRestoresTheStateAtTheTargetSeqWithCompensatingEvents() {
        List<String> ids = s.given(
                s.request(AGENT, memory("Ana likes tea")).build(),
                s.request(AGENT, memory("Ana lives in Porto")).build());
        Map<String, String> atTwo = visibleAt(2);
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(ids.get(0))
                                .setContent("Ana hates tea")
                                .build())
                .build());
        s.given(s.request(AGENT, new DeleteMemory(ids.get(1), "wrong")).build());
        String late = s.given(s.request(AGENT, memory("Ana moved to Mars")).build());
        s.given(s.request(
                        AGENT,
                        LinkMemories.newBuilder()
                                .setFromId(ids.get(0))
                                .setToId(late)
                                .build())
                .build());
        int before = s.events().size();

        RollbackPlan plan = plan(RollbackSpec.space(2));

        assertThat(plan.targetSeq()).isEqualTo(2);
        assertThat(plan.headSeq()).isEqualTo(6);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId, RollbackPlan.MemoryChange::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(ids.get(0), RollbackPlan.Action.RESTORE),
                        org.assertj.core.groups.Tuple.tuple(ids.get(1), RollbackPlan.Action.RESTORE),
                        org.assertj.core.groups.Tuple.tuple(late, RollbackPlan.Action.DELETE));
        assertThat(plan.edges()).singleElement().satisfies(e -> {
            assertThat(e.targetType()).isNull();
            assertThat(e.events()).containsExactly("MemoriesUnlinked");
        });
        assertThat(s.events()).as("planning is a dry run").hasSize(before);

        apply(plan);

        List<MemoryEvent> appended = s.events().subList(before, s.events().size());
        assertThat(appended)
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly(
                        "RollbackApplied", "MemoryDeleted", "MemoryUpdated", "MemoryUpdated", "MemoriesUnlinked");
        assertThat(appended.get(0).getPayload()).isInstanceOfSatisfying(RollbackApplied.class, r -> {
            assertThat(r.getTargetSeq()).isEqualTo(2);
            assertThat(r.getHeadSeq()).isEqualTo(6);
            assertThat(r.getReason()).isEqualTo("undo the bad import");
            assertThat(r.getPlanDigest()).isEqualTo(plan.digest());
            assertThat(r.getMemories()).isEqualTo(3);
        });
        assertThat(visibleNow()).isEqualTo(atTwo);
        assertThat(s.model().relation(SPACE, ids.get(0), late)).isNull();
        assertThat(plan(RollbackSpec.space(2)).isEmpty())
                .as("nothing left to undo")
                .isTrue();
    }

    @Test
    void aSpaceRollbackToATimeTakesTheLastSeqAtOrBeforeIt() {
        String id = s.given(s.request(AGENT, memory("v1")).build());
        Instant between = s.now().minusSeconds(30);
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v2").build())
                .build());

        RollbackPlan plan = plan(RollbackSpec.spaceAt(between));

        assertThat(plan.targetSeq()).isEqualTo(1);
        assertThat(plan.targetTime()).isEqualTo(between);
        assertThat(plan.memories())
                .singleElement()
                .satisfies(m -> assertThat(m.target().getContent()).isEqualTo("v1"));
        apply(plan);
        assertThat(s.model().memory(SPACE, id).getContent()).isEqualTo("v1");
        assertThat(s.model().memory(SPACE, id).getVersion()).isEqualTo(3);
    }

    @Test
    void aMemoryRollbackTouchesOnlyThatMemoryAndItsEdges() {
        List<String> ids = s.given(
                s.request(AGENT, memory("a1")).build(),
                s.request(AGENT, memory("b1")).build());
        s.given(
                s.request(
                                AGENT,
                                UpdateMemory.newBuilder()
                                        .setId(ids.get(0))
                                        .setContent("a2")
                                        .build())
                        .build(),
                s.request(
                                AGENT,
                                UpdateMemory.newBuilder()
                                        .setId(ids.get(1))
                                        .setContent("b2")
                                        .build())
                        .build(),
                s.request(
                                AGENT,
                                LinkMemories.newBuilder()
                                        .setFromId(ids.get(1))
                                        .setToId(ids.get(0))
                                        .build())
                        .build());

        RollbackPlan plan = plan(RollbackSpec.memory(ids.get(0), 2));

        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId)
                .containsExactly(ids.get(0));
        assertThat(plan.edges()).hasSize(1);
        apply(plan);
        assertThat(s.model().memory(SPACE, ids.get(0)).getContent()).isEqualTo("a1");
        assertThat(s.model().memory(SPACE, ids.get(1)).getContent()).isEqualTo("b2");
        assertThatThrownBy(() -> plan(RollbackSpec.memory("m-nope", 1)))
                .isInstanceOfSatisfying(
                        RollbackPlanException.class, e -> assertThat(e.code()).isEqualTo("NOT_FOUND"));
        assertThatThrownBy(() -> plan(RollbackSpec.space(99)))
                .isInstanceOfSatisfying(
                        RollbackPlanException.class, e -> assertThat(e.code()).isEqualTo("INVALID_ARGUMENT"));
    }

    @Test
    void aSessionRollbackUndoesExactlyTheSessionsEditsAndKeepsOthers() {
        List<String> ids = s.given(
                s.request(AGENT, core("Ana likes tea")).build(),
                s.request(AGENT, core("Ana drinks green tea")).build(),
                s.request(AGENT, core("Ana is a planner")).build(),
                s.request(AGENT, core("Ana likes tea")).build());
        long beforeSession = s.events().size();
        Map<String, String> atStart = visibleAt(beforeSession);
        s.given(s.request(
                        ADMIN, StartRefinement.newBuilder().setReason("too big").build())
                .build());
        String session = s.events().stream()
                .filter(e -> e.getPayload() instanceof RefinementStarted)
                .map(e -> ((RefinementStarted) e.getPayload()).getSessionId())
                .findFirst()
                .orElseThrow();
        s.given(s.request(
                        AGENT,
                        ConsolidateMemories.newBuilder()
                                .setIds(ids.subList(0, 2))
                                .setContent("Ana drinks tea")
                                .setReason("same")
                                .build())
                .setSessionId(session)
                .build());
        String outside = s.given(s.request(Scenario.actor(ActorType.USER, "manual"), memory("Ana's cat is Rui"))
                .build());
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(ids.get(2))
                                .setContent("Ana plans")
                                .build())
                .setSessionId(session)
                .build());
        s.given(s.request(AGENT, new CompleteRefinement("compressed"))
                .setSessionId(session)
                .build());

        RollbackPlan plan = plan(RollbackSpec.session(session));

        assertThat(plan.targetSeq()).isEqualTo(beforeSession);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId)
                .doesNotContain(outside);
        apply(plan);
        Map<String, String> expected = new TreeMap<>(atStart);
        expected.putAll(Map.of(outside, visibleNow().get(outside)));
        assertThat(visibleNow())
                .as("the session undone (duplicate cleanup included), the user's memory kept")
                .isEqualTo(expected);
        assertThatThrownBy(() -> plan(RollbackSpec.session("r-unknown"))).isInstanceOf(RollbackPlanException.class);
    }

    @Test
    void aReflectionRollbackUndoesWhatTheApprovedReflectionAppliedAndKeepsLaterWork() {
        String fact = s.given(s.request(AGENT, memory("Launch is on Thursday")).build());
        io.memorychain.avro.ReflectionDocument doc = io.memorychain.avro.ReflectionDocument.newBuilder()
                .setTrigger(io.memorychain.avro.ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(1)
                .setSummary("# Reflection")
                .setChanges(List.of(
                        io.memorychain.avro.ReflectionChange.newBuilder()
                                .setChangeId("c1")
                                .setReason("seen")
                                .setType(io.memorychain.avro.ReflectionChangeType.CREATE_MEMORY)
                                .setContent("Ana decides launch dates")
                                .build(),
                        io.memorychain.avro.ReflectionChange.newBuilder()
                                .setChangeId("c2")
                                .setReason("seen")
                                .setType(io.memorychain.avro.ReflectionChangeType.UPDATE_MEMORY)
                                .setMemoryId(fact)
                                .setContent("Launch is on Friday")
                                .build()))
                .build();
        String reflection = s.given(s.request(Scenario.WORKER, new io.memorychain.avro.ProposeReflection(doc))
                .build());
        long beforeDecision = s.events().size();
        Map<String, String> before = visibleAt(beforeDecision);
        s.given(s.request(
                        Scenario.actor(ActorType.USER, "ana"),
                        io.memorychain.avro.DecideReflection.newBuilder()
                                .setReflectionId(reflection)
                                .setDecision(io.memorychain.avro.ReflectionDecisionType.APPROVE)
                                .setReason(null)
                                .setChangeIds(List.of())
                                .setEditedChanges(List.of())
                                .build())
                .build());
        String later = s.given(s.request(AGENT, memory("Ana's cat is Rui")).build());

        RollbackPlan plan = plan(RollbackSpec.reflection(reflection));

        assertThat(plan.targetSeq()).isEqualTo(beforeDecision);
        assertThat(plan.scope()).isEqualTo(io.memorychain.avro.RollbackScope.REFLECTION);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::action)
                .containsExactlyInAnyOrder(RollbackPlan.Action.DELETE, RollbackPlan.Action.RESTORE);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId)
                .contains(fact)
                .doesNotContain(later);
        apply(plan);
        Map<String, String> expected = new TreeMap<>(before);
        expected.put(later, visibleNow().get(later));
        assertThat(visibleNow())
                .as("the reflection's changes undone, the later memory kept")
                .isEqualTo(expected);
        assertThatThrownBy(() -> plan(RollbackSpec.reflection("r-unknown"))).isInstanceOf(RollbackPlanException.class);
        assertThatThrownBy(() -> RollbackSpec.of(null, "s1", null, reflection, null, null, null))
                .isInstanceOf(RollbackPlanException.class);
    }

    @Test
    void anActorRollbackUndoesOnlyThatActorsEventsInTheRange() {
        String shared = s.given(s.request(AGENT, memory("shared v1")).build());
        var bot = Scenario.actor(ActorType.WORKER, "tom");
        String fromBot = s.given(s.request(bot, memory("bot insight")).build());
        s.given(s.request(AGENT, memory("agent fact")).build());
        s.given(s.request(
                        bot,
                        UpdateMemory.newBuilder()
                                .setId(shared)
                                .setContent("shared by bot")
                                .build())
                .build());
        String lateBot = s.given(s.request(bot, memory("late bot insight")).build());

        RollbackPlan plan = plan(RollbackSpec.actor("worker:tom", 2, 4L));

        assertThat(plan.targetSeq()).isEqualTo(1);
        assertThat(plan.rangeToSeq()).isEqualTo(4);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId)
                .containsExactlyInAnyOrder(shared, fromBot);
        apply(plan);
        assertThat(s.model().memory(SPACE, shared).getContent()).isEqualTo("shared v1");
        assertThat(s.model().memory(SPACE, fromBot).getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(s.model().memory(SPACE, lateBot).getState())
                .as("after the range")
                .isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void aRestoredBlockVersionIsItsLabelsHeadAgain() {
        String first = s.given(s.request(AGENT, new UpdateBlock("persona", "I am careful", true))
                .build());
        s.given(s.request(AGENT, new UpdateBlock("persona", "I am reckless", true))
                .build());

        apply(plan(RollbackSpec.space(1)));

        assertThat(s.model().activeBlock(SPACE, "persona")).isEqualTo(first);
        assertThat(s.model().memory(SPACE, first).getState()).isEqualTo(MemoryState.ACTIVE);
        String third = s.given(s.request(AGENT, new UpdateBlock("persona", "I am careful and kind", true))
                .build());
        assertThat(s.model().memory(SPACE, first).getSupersededBy()).isEqualTo(third);
    }

    @Test
    void anUnlinkedEdgeIsLinkedAgainWithItsStrength() {
        List<String> ids = s.given(
                s.request(AGENT, memory("a")).build(),
                s.request(AGENT, memory("b")).build());
        s.given(s.request(
                        AGENT,
                        LinkMemories.newBuilder()
                                .setFromId(ids.get(0))
                                .setToId(ids.get(1))
                                .setStrength(0.7)
                                .build())
                .build());
        s.given(s.request(AGENT, new UnlinkMemories(ids.get(0), ids.get(1))).build());
        int before = s.events().size();

        apply(plan(RollbackSpec.space(3)));

        assertThat(s.model().relation(SPACE, ids.get(0), ids.get(1))).isEqualTo("related_to");
        assertThat(s.events().get(s.events().size() - 1).getPayload())
                .isInstanceOfSatisfying(
                        MemoriesLinked.class, l -> assertThat(l.getStrength()).isEqualTo(0.7));
        assertThat(s.events().size() - before).isEqualTo(2);
    }

    @Test
    void onlyAdminsRollBackWithAReasonAndANonEmptyPlanAtTheCurrentHead() {
        String id = s.given(s.request(AGENT, memory("v1")).build());
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v2").build())
                .build());
        RollbackSpace op = plan(RollbackSpec.space(1)).toRequest("typo");

        assertRejected(s.when(s.request(AGENT, op).build()), RejectionCode.FORBIDDEN);
        assertRejected(
                s.when(s.request(
                                ADMIN,
                                RollbackSpace.newBuilder(op).setReason(" ").build())
                        .build()),
                RejectionCode.INVALID_ARGUMENT);
        assertRejected(
                s.when(s.request(
                                ADMIN,
                                RollbackSpace.newBuilder(op)
                                        .setMemories(List.of())
                                        .build())
                        .build()),
                RejectionCode.INVALID_ARGUMENT);

        // planned by a reader without the content key: its targets hold the chain's ciphertext, never sealed as text
        RollbackSpace blind = RollbackSpace.newBuilder(op).build();
        blind.getMemories().get(0).getTarget().setContent("enc1:AAECAwQFBgcICQ");
        Decision refused = s.when(s.request(ADMIN, blind).build());
        assertRejected(refused, RejectionCode.INVALID_ARGUMENT);
        assertThat(((Decision.Reject) refused).message()).contains("holds ciphertext");

        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v3").build())
                .build());

        assertRejected(s.when(s.request(ADMIN, op).build()), RejectionCode.VERSION_CONFLICT);
        assertThat(s.model().memory(SPACE, id).getContent()).isEqualTo("v3");
    }

    @Test
    void theRestoringEventsCarryBeforeAndAfter() {
        String id = s.given(s.request(AGENT, memory("v1")).build());
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v2").build())
                .build());
        s.advance(Duration.ofMinutes(5));

        Decision decision = s.when(
                s.request(ADMIN, plan(RollbackSpec.space(1)).toRequest("undo")).build());

        assertThat(decision).isInstanceOfSatisfying(Decision.AcceptAll.class, all -> {
            assertThat(all.events().get(1).payload()).isInstanceOfSatisfying(MemoryUpdated.class, u -> {
                assertThat(u.getBefore().getContent()).isEqualTo("v2");
                assertThat(u.getAfter().getContent()).isEqualTo("v1");
                assertThat(u.getAfter().getVersion()).isEqualTo(3);
                assertThat(u.getAfter().getUpdatedAt()).isEqualTo(s.now());
            });
            assertThat(all.events().get(1).memoryId()).isEqualTo(id);
        });
    }

    @Test
    void aRollbackCannotBringBackAPurgedMemory() {
        String id = s.given(
                s.request(AGENT, memory("Ana's passport number is X123")).build());
        s.given(s.request(AGENT, new DeleteMemory(id, "wrong")).build());
        s.given(s.request(ADMIN, new PurgeMemory(id, "user asked to forget")).build());

        RollbackPlan plan = plan(RollbackSpec.space(1));

        assertThat(plan.isEmpty()).isFalse();
        assertRejected(s.when(s.request(ADMIN, plan.toRequest("undo")).build()), RejectionCode.INVALID_STATE);
    }
}
