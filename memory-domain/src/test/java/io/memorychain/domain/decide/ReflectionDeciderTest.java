package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static io.memorychain.domain.decide.Scenario.WORKER;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionRequested;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.RequestReflection;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.RejectionCode;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reflection engine's rules (docs/architecture.md §18): given/when/then over the pure write model. */
class ReflectionDeciderTest {

    private static final Actor USER = Scenario.actor(ActorType.USER, "ana");
    private static final Actor REFLECT = Scenario.actor(ActorType.WORKER, "reflect");

    private final Scenario s = new Scenario();
    private String episode;
    private String fact;

    @BeforeEach
    void memories() {
        episode = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.EPISODIC)
                                .setContent("Ana moved the launch to Friday after the review")
                                .build())
                .build());
        fact = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Launch is on Thursday")
                                .build())
                .build());
    }

    private static ReflectionChange.Builder change(String id, ReflectionChangeType type) {
        return ReflectionChange.newBuilder().setChangeId(id).setType(type).setReason("seen in episodes");
    }

    private List<ReflectionChange> changes() {
        return List.of(
                change("c1", ReflectionChangeType.CREATE_MEMORY)
                        .setContent("Ana decides launch dates")
                        .build(),
                change("c2", ReflectionChangeType.UPDATE_MEMORY)
                        .setMemoryId(fact)
                        .setContent("Launch is on Friday")
                        .build(),
                change("c3", ReflectionChangeType.UPDATE_BLOCK)
                        .setLabel("goals")
                        .setContent("Ship on Friday")
                        .build(),
                change("c4", ReflectionChangeType.LINK_MEMORIES)
                        .setMemoryId(episode)
                        .setToId(fact)
                        .build());
    }

    private ReflectionDocument document(List<ReflectionChange> changes) {
        return ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(2)
                .setEpisodeIds(List.of(episode))
                .setSummary("# Reflection\n- launch moved")
                .setChanges(changes)
                .setOutputTokens(120)
                .setOutputTokenCap(8000)
                .build();
    }

    private String propose(List<ReflectionChange> changes) {
        return s.given(
                s.request(REFLECT, new ProposeReflection(document(changes))).build());
    }

    private static DecideReflection decision(
            String id, ReflectionDecisionType type, List<String> changeIds, List<ReflectionChange> edits) {
        return DecideReflection.newBuilder()
                .setReflectionId(id)
                .setDecision(type)
                .setReason("ok")
                .setChangeIds(changeIds)
                .setEditedChanges(edits)
                .build();
    }

    private static RejectionCode code(Decision d) {
        assertThat(d).isInstanceOf(Decision.Reject.class);
        return ((Decision.Reject) d).code();
    }

    @Test
    void aManualRequestIsRecordedForTheWorker() {
        Decision d = s.when(s.request(USER, new RequestReflection("reflect on your memories"))
                .build());
        assertThat(((Decision.Accept) d).payload()).isEqualTo(new ReflectionRequested("reflect on your memories"));
        assertThat(code(s.when(s.request(WORKER, new RequestReflection(null)).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
    }

    @Test
    void aProposalIsPendingAndChangesNoMemory() {
        List<Memory> before = s.model().memories(SPACE);
        String id = propose(changes());
        assertThat(id).isEqualTo(MemoryIds.reflection(SPACE, 3));
        Reflection r = s.model().reflection(SPACE, id);
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PENDING);
        assertThat(r.getDocument().getChanges()).hasSize(4);
        assertThat(s.model().memories(SPACE)).isEqualTo(before);
    }

    @Test
    void onlyTheWorkerProposes() {
        assertThat(code(s.when(s.request(AGENT, new ProposeReflection(document(changes())))
                        .build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
    }

    @Test
    void malformedDocumentsAreRefused() {
        List<ReflectionChange> twiceSameId = List.of(changes().get(0), changes().get(0));
        List<ReflectionChange> sameMemoryTwice = List.of(
                changes().get(1),
                change("c9", ReflectionChangeType.UPDATE_MEMORY)
                        .setMemoryId(fact)
                        .setImportance(5)
                        .build());
        List<ReflectionChange> noContent =
                List.of(change("c1", ReflectionChangeType.CREATE_MEMORY).build());
        List<ReflectionChange> noReason = List.of(change("c1", ReflectionChangeType.CREATE_MEMORY)
                .setContent("x")
                .setReason(" ")
                .build());
        for (List<ReflectionChange> bad : List.of(twiceSameId, sameMemoryTwice, noContent, noReason)) {
            assertThat(code(s.when(s.request(REFLECT, new ProposeReflection(document(bad)))
                            .build())))
                    .as("%s", bad)
                    .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        }
        ReflectionDocument noSummary = document(changes());
        noSummary.setSummary(" ");
        ReflectionDocument future = document(changes());
        future.setToSeq(99);
        for (ReflectionDocument bad : List.of(noSummary, future)) {
            assertThat(code(s.when(
                            s.request(REFLECT, new ProposeReflection(bad)).build())))
                    .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        }
    }

    @Test
    void approveAppliesEveryChangeAtomicallyAfterTheDecision() {
        String id = propose(changes());
        Decision d = s.when(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of(), List.of()))
                .build());
        List<Decision.Accept> events = ((Decision.AcceptAll) d).events();
        assertThat(events).hasSize(5);
        ReflectionDecided decided = (ReflectionDecided) events.get(0).payload();
        assertThat(decided.getAppliedChangeIds()).containsExactly("c1", "c2", "c3", "c4");
        String created = MemoryIds.of(SPACE, 5);
        assertThat(decided.getMemoryIds()).containsExactly(created, fact, MemoryIds.of(SPACE, 7), episode);
        assertThat(events.get(1).payload()).isInstanceOf(MemoryCreated.class);
        assertThat(((MemoryCreated) events.get(1).payload()).getMemory().getSource())
                .isEqualTo("reflection:" + id);
        assertThat(((MemoryUpdated) events.get(2).payload()).getAfter().getContent())
                .isEqualTo("Launch is on Friday");
        assertThat(events.get(3).payload()).isInstanceOf(BlockUpdated.class);
        assertThat(events.get(4).payload()).isInstanceOf(MemoriesLinked.class);
        assertThat(events.subList(1, 5))
                .allSatisfy(e -> assertThat(e.actor()).isEqualTo(Scenario.actor(ActorType.USER, "reflection:" + id)));

        s.given(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of(), List.of()))
                .build());
        assertThat(s.model().reflection(SPACE, id).getStatus()).isEqualTo(ReflectionStatus.APPROVED);
        assertThat(s.model().memory(SPACE, created).getContent()).isEqualTo("Ana decides launch dates");
        assertThat(s.model().relation(SPACE, episode, fact)).isEqualTo("related_to");
    }

    @Test
    void aReflectionIsDecidedAtMostOnce() {
        String id = propose(changes());
        s.given(s.request(USER, decision(id, ReflectionDecisionType.REJECT, List.of(), List.of()))
                .build());
        assertThat(s.model().reflection(SPACE, id).getStatus()).isEqualTo(ReflectionStatus.REJECTED);
        assertThat(code(s.when(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of(), List.of()))
                        .build())))
                .isEqualTo(RejectionCode.ALREADY_RESOLVED);
    }

    @Test
    void rejectAppliesNothing() {
        String id = propose(changes());
        List<Memory> before = s.model().memories(SPACE);
        Decision d = s.when(s.request(USER, decision(id, ReflectionDecisionType.REJECT, List.of(), List.of()))
                .build());
        assertThat(((Decision.AcceptAll) d).events()).hasSize(1);
        s.given(s.request(USER, decision(id, ReflectionDecisionType.REJECT, List.of(), List.of()))
                .build());
        assertThat(s.model().memories(SPACE)).isEqualTo(before);
    }

    @Test
    void partialAppliesOnlyTheNamedChanges() {
        String id = propose(changes());
        s.given(s.request(AGENT, decision(id, ReflectionDecisionType.PARTIAL, List.of("c4", "c2"), List.of()))
                .build());
        Reflection r = s.model().reflection(SPACE, id);
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PARTIALLY_APPROVED);
        assertThat(r.getAppliedChangeIds()).containsExactly("c2", "c4");
        assertThat(s.model().activeBlock(SPACE, "goals")).isNull();
        assertThat(s.model().memory(SPACE, fact).getContent()).isEqualTo("Launch is on Friday");
    }

    @Test
    void approveWithChangesAppliesTheEditedVersion() {
        String id = propose(changes());
        ReflectionChange edited = change("c1", ReflectionChangeType.CREATE_MEMORY)
                .setContent("Ana decides launch dates after reviews")
                .build();
        s.given(s.request(
                        USER, decision(id, ReflectionDecisionType.APPROVE_WITH_CHANGES, List.of("c1"), List.of(edited)))
                .build());
        Reflection r = s.model().reflection(SPACE, id);
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PARTIALLY_APPROVED);
        assertThat(r.getEditedChanges()).containsExactly(edited);
        assertThat(s.model().memory(SPACE, r.getMemoryIds().get(0)).getContent())
                .isEqualTo("Ana decides launch dates after reviews");
    }

    @Test
    void anEditMustKeepItsTypeAndTarget() {
        String id = propose(changes());
        ReflectionChange retargeted = change("c2", ReflectionChangeType.UPDATE_MEMORY)
                .setMemoryId(episode)
                .setContent("x")
                .build();
        assertThat(code(s.when(s.request(
                                USER,
                                decision(
                                        id,
                                        ReflectionDecisionType.APPROVE_WITH_CHANGES,
                                        List.of(),
                                        List.of(retargeted)))
                        .build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
    }

    @Test
    void unknownReflectionsAndChangeIdsAreRefused() {
        String id = propose(changes());
        assertThat(code(s.when(
                        s.request(USER, decision("r0000zzzabcd", ReflectionDecisionType.APPROVE, List.of(), List.of()))
                                .build())))
                .isEqualTo(RejectionCode.NOT_FOUND);
        assertThat(code(s.when(s.request(USER, decision(id, ReflectionDecisionType.PARTIAL, List.of("c7"), List.of()))
                        .build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(code(s.when(s.request(USER, decision(id, ReflectionDecisionType.PARTIAL, List.of(), List.of()))
                        .build())))
                .as("partial names changes")
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(code(s.when(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of("c1"), List.of()))
                        .build())))
                .as("approve is all")
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
    }

    @Test
    void neverDecidedByAWorkerNorAnAdmin() {
        String id = propose(changes());
        for (Actor actor : List.of(REFLECT, ADMIN, Scenario.SUBAGENT)) {
            assertThat(code(s.when(s.request(actor, decision(id, ReflectionDecisionType.APPROVE, List.of(), List.of()))
                            .build())))
                    .as("%s", actor)
                    .isEqualTo(RejectionCode.FORBIDDEN);
        }
    }

    @Test
    void aChangeThatNoLongerAppliesRejectsTheWholeDecision() {
        String id = propose(changes());
        s.given(s.request(AGENT, new DeleteMemory(fact, "wrong")).build());
        int events = s.events().size();
        Decision d = s.when(s.request(USER, decision(id, ReflectionDecisionType.APPROVE, List.of(), List.of()))
                .build());
        assertThat(code(d)).isEqualTo(RejectionCode.INVALID_STATE);
        assertThat(((Decision.Reject) d).message()).contains("change c2");
        assertThat(s.events()).hasSize(events);
        assertThat(s.model().reflection(SPACE, id).getStatus()).isEqualTo(ReflectionStatus.PENDING);
    }

    @Test
    void theAppliedEventsReplayToTheSameState() {
        String id = propose(changes());
        s.given(s.request(USER, decision(id, ReflectionDecisionType.PARTIAL, List.of("c1", "c3"), List.of()))
                .build());
        InMemoryWriteModel replay = new InMemoryWriteModel();
        for (MemoryEvent e : s.events()) {
            WriteModelEvolution.apply(e, replay);
        }
        assertThat(replay.reflection(SPACE, id)).isEqualTo(s.model().reflection(SPACE, id));
        assertThat(replay.memories(SPACE)).isEqualTo(s.model().memories(SPACE));
    }
}
