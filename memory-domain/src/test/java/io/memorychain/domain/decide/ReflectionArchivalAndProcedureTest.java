package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionMilestone;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.ReflectionMilestones;
import io.memorychain.domain.RejectionCode;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reflection's archival and procedure proposals and its evolution milestones (docs/architecture.md §18): an approved
 * archival archives the memory, an approved procedure creates a procedural memory, in the decision's transaction and by
 * the ordinary rules; a rejected or unselected one changes nothing.
 */
class ReflectionArchivalAndProcedureTest {

    private static final Actor USER = Scenario.actor(ActorType.USER, "ana");
    private static final Actor REFLECT = Scenario.actor(ActorType.WORKER, "reflect");

    private final Scenario s = new Scenario();
    private String stale;
    private String fact;

    @BeforeEach
    void memories() {
        stale = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Discussed an unrelated CSS bug in December")
                                .build())
                .build());
        fact = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Deploys go through staging first")
                                .build())
                .build());
    }

    private static ReflectionChange archive(String id, String memoryId) {
        return ReflectionChange.newBuilder()
                .setChangeId(id)
                .setType(ReflectionChangeType.ARCHIVE_MEMORY)
                .setMemoryId(memoryId)
                .setReason("not read for months")
                .build();
    }

    private static ReflectionChange procedure(String id) {
        return ReflectionChange.newBuilder()
                .setChangeId(id)
                .setType(ReflectionChangeType.CREATE_PROCEDURE)
                .setContent("1. build 2. deploy to staging 3. smoke test 4. promote")
                .setSummary("deploy workflow")
                .setReason("the same steps in three episodes")
                .build();
    }

    private static ReflectionDocument document(
            int number, ReflectionMilestone milestone, List<ReflectionChange> changes) {
        return ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.SCHEDULE)
                .setNumber(number)
                .setFromSeq(1)
                .setToSeq(2)
                .setSummary("# Reflection")
                .setChanges(changes)
                .setMilestone(milestone)
                .build();
    }

    private String propose(List<ReflectionChange> changes) {
        return s.given(s.request(REFLECT, new ProposeReflection(document(1, null, changes)))
                .build());
    }

    private static DecideReflection decision(String id, ReflectionDecisionType type, List<String> changeIds) {
        return DecideReflection.newBuilder()
                .setReflectionId(id)
                .setDecision(type)
                .setReason("ok")
                .setChangeIds(changeIds)
                .setEditedChanges(List.of())
                .build();
    }

    private static RejectionCode code(Decision d) {
        assertThat(d).isInstanceOf(Decision.Reject.class);
        return ((Decision.Reject) d).code();
    }

    @Test
    void anApprovedArchivalArchivesAndAnApprovedProcedureCreatesAProceduralMemory() {
        String id = propose(List.of(archive("c1", stale), procedure("c2")));
        Decision d = s.when(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of()))
                .build());
        List<Decision.Accept> events = ((Decision.AcceptAll) d).events();
        assertThat(events).hasSize(3);
        DecayTransitioned archived = (DecayTransitioned) events.get(1).payload();
        assertThat(archived.getMemoryId()).isEqualTo(stale);
        assertThat(archived.getTo()).isEqualTo(DecayStatus.ARCHIVED);
        assertThat(events.get(1).actor()).isEqualTo(Scenario.actor(ActorType.USER, "reflection:" + id));
        Memory created = ((MemoryCreated) events.get(2).payload()).getMemory();
        assertThat(created.getKind()).isEqualTo(MemoryKind.PROCEDURAL);
        assertThat(created.getSource()).isEqualTo("reflection:" + id);

        s.given(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of()))
                .build());
        Reflection r = s.model().reflection(SPACE, id);
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.APPROVED);
        assertThat(r.getMemoryIds()).containsExactly(stale, created.getId());
        assertThat(s.model().memory(SPACE, stale).getState()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(s.model().memory(SPACE, created.getId()).getContent()).startsWith("1. build");
        assertThat(s.model().memory(SPACE, fact).getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void aRejectedReflectionArchivesNothingAndCreatesNoProcedure() {
        String id = propose(List.of(archive("c1", stale), procedure("c2")));
        List<Memory> before = s.model().memories(SPACE);
        s.given(s.request(USER, decision(id, ReflectionDecisionType.REJECT, List.of()))
                .build());
        assertThat(s.model().reflection(SPACE, id).getStatus()).isEqualTo(ReflectionStatus.REJECTED);
        assertThat(s.model().memories(SPACE)).isEqualTo(before);
    }

    @Test
    void aPartialApprovalAppliesOnlyTheNamedArchivalOrProcedure() {
        String id = propose(List.of(archive("c1", stale), procedure("c2")));
        s.given(s.request(AGENT, decision(id, ReflectionDecisionType.PARTIAL, List.of("c2")))
                .build());
        Reflection r = s.model().reflection(SPACE, id);
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PARTIALLY_APPROVED);
        assertThat(r.getAppliedChangeIds()).containsExactly("c2");
        assertThat(s.model().memory(SPACE, stale).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(s.model().memory(SPACE, r.getMemoryIds().get(0)).getKind()).isEqualTo(MemoryKind.PROCEDURAL);
    }

    @Test
    void anArchivalThatNoLongerAppliesRejectsTheWholeDecisionWithItsCode() {
        String unknown = propose(List.of(archive("c1", MemoryIds.of(SPACE, 99)), procedure("c2")));
        Decision d = s.when(s.request(USER, decision(unknown, ReflectionDecisionType.APPROVE, List.of()))
                .build());
        assertThat(code(d)).isEqualTo(RejectionCode.NOT_FOUND);
        assertThat(((Decision.Reject) d).message()).contains("change c1");
        s.given(s.request(USER, decision(unknown, ReflectionDecisionType.REJECT, List.of()))
                .build());

        String pinned = propose(List.of(archive("c1", fact)));
        s.given(s.request(AGENT, new SetFlag(fact, MemoryFlag.PINNED, true)).build());
        int events = s.events().size();
        assertThat(code(s.when(s.request(USER, decision(pinned, ReflectionDecisionType.APPROVE, List.of()))
                        .build())))
                .isEqualTo(RejectionCode.INVALID_STATE);
        assertThat(s.events()).hasSize(events);
        assertThat(s.model().memory(SPACE, fact).getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void malformedArchivalsAndProceduresAreRefused() {
        ReflectionChange noId = ReflectionChange.newBuilder()
                .setChangeId("c1")
                .setType(ReflectionChangeType.ARCHIVE_MEMORY)
                .setReason("stale")
                .build();
        ReflectionChange noSteps = ReflectionChange.newBuilder()
                .setChangeId("c1")
                .setType(ReflectionChangeType.CREATE_PROCEDURE)
                .setReason("pattern")
                .build();
        ReflectionChange updateThenArchive = ReflectionChange.newBuilder()
                .setChangeId("c2")
                .setType(ReflectionChangeType.UPDATE_MEMORY)
                .setMemoryId(stale)
                .setImportance(1)
                .setReason("x")
                .build();
        for (List<ReflectionChange> bad :
                List.of(List.of(noId), List.of(noSteps), List.of(archive("c1", stale), updateThenArchive))) {
            assertThat(code(s.when(s.request(REFLECT, new ProposeReflection(document(1, null, bad)))
                            .build())))
                    .as("%s", bad)
                    .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        }
    }

    @Test
    void theMilestoneMustMatchTheReflectionsNumber() {
        assertThat(ReflectionMilestones.of(10)).isEqualTo(ReflectionMilestone.SUMMARY);
        assertThat(ReflectionMilestones.of(25)).isEqualTo(ReflectionMilestone.CONSOLIDATION);
        assertThat(ReflectionMilestones.of(50)).isEqualTo(ReflectionMilestone.SYNTHESIS);
        assertThat(ReflectionMilestones.of(100)).isEqualTo(ReflectionMilestone.RETROSPECTIVE);
        assertThat(ReflectionMilestones.of(11)).isNull();
        assertThat(code(s.when(s.request(
                                REFLECT,
                                new ProposeReflection(
                                        document(11, ReflectionMilestone.SUMMARY, List.of(procedure("c1")))))
                        .build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(s.when(s.request(
                                REFLECT,
                                new ProposeReflection(
                                        document(10, ReflectionMilestone.SUMMARY, List.of(procedure("c1")))))
                        .build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void theAppliedArchivalReplaysToTheSameState() {
        String id = propose(List.of(archive("c1", stale), procedure("c2")));
        s.given(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of()))
                .build());
        InMemoryWriteModel replay = new InMemoryWriteModel();
        for (MemoryEvent e : s.events()) {
            WriteModelEvolution.apply(e, replay);
        }
        assertThat(replay.memories(SPACE)).isEqualTo(s.model().memories(SPACE));
        assertThat(replay.reflection(SPACE, id)).isEqualTo(s.model().reflection(SPACE, id));
    }
}
