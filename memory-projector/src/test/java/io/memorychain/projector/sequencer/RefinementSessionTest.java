package io.memorychain.projector.sequencer;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DuplicateRemoval;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.domain.refinement.SessionIds;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ViewSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Refinement sessions (docs/architecture.md §9) on the real sequencer and projection: every rule, and the views they
 * leave.
 */
class RefinementSessionTest {

    private static final String SPACE = "acme-planner";
    private static final Actor WORKER = Requests.actor(ActorType.WORKER, "refinement");
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String core(String content) {
        return created(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder().setContent(content).setTier(Tier.CORE).build()));
    }

    private String working(String content) {
        return created(Requests.create(SPACE, AGENT, content));
    }

    private String created(MemoryRequest.Builder request) {
        MemoryOutcome o = h.submit(request);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private String start(Actor actor) {
        MemoryOutcome o = h.submit(Requests.startRefinement(SPACE, actor, RefinementTrigger.ADMIN, null));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return h.views.openRefinement(SPACE).orElseThrow().getSessionId();
    }

    private MemoryOutcome inSession(String session, MemoryRequest.Builder request) {
        return h.submit(request.setSessionId(session));
    }

    private void assertRejected(MemoryOutcome outcome, String code) {
        assertThat(outcome.getAccepted()).as("accepted: %s", outcome).isFalse();
        assertThat(outcome.getCode()).as(outcome.getMessage()).isEqualTo(code);
        assertThat(outcome.getMessage()).isNotBlank();
    }

    private Memory memory(String id) {
        return h.views.memory(SPACE, id).orElseThrow();
    }

    private MemoryEvent last() {
        return h.chain().get(h.chain().size() - 1);
    }

    @Test
    void startRemovesExactDuplicatesAndOpensTheSessionInOneDecision() {
        String tea = core("Likes green tea");
        h.advance(Duration.ofHours(1));
        String teaAgain = core("  likes GREEN   tea ");
        String walks = core("Walks every morning");
        int tokensWithDuplicate = h.views.core(SPACE).tokens();

        MemoryOutcome o = h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null));

        assertThat(o.getAccepted()).isTrue();
        assertThat(h.chain()).hasSize(5);
        DuplicatesRemoved cleanup = (DuplicatesRemoved) h.chain().get(3).getPayload();
        RefinementStarted started = (RefinementStarted) h.chain().get(4).getPayload();
        String session = SessionIds.of(SPACE, 4);
        assertThat(cleanup.getSessionId()).isEqualTo(session);
        assertThat(cleanup.getRemoved())
                .containsExactly(new DuplicateRemoval(teaAgain, tea, memory(tea).getContentHash()));
        assertThat(started.getSessionId()).isEqualTo(session);
        assertThat(started.getTrigger()).isEqualTo(RefinementTrigger.ADMIN);
        assertThat(started.getTargetTokens()).isEqualTo(5_000);
        assertThat(started.getLedgerSize()).isEqualTo(2);
        assertThat(started.getDuplicatesRemoved()).isEqualTo(1);
        assertThat(started.getCoreTokens())
                .isEqualTo(h.views.core(SPACE).tokens())
                .isLessThan(tokensWithDuplicate);
        assertThat(o.getSeq()).isEqualTo(5L);
        assertThat(o.getMemoryId()).isNull();
        assertThat(o.getVersion()).isNull();

        assertThat(memory(teaAgain).getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(memory(tea).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(memory(walks).getState()).isEqualTo(MemoryState.ACTIVE);
        RefinementSession open = h.views.openRefinement(SPACE).orElseThrow();
        assertThat(open.getSessionId()).isEqualTo(session);
        assertThat(open.getStartedSeq()).isEqualTo(5L);
        assertThat(open.getStartedBy()).isEqualTo(ADMIN);
        assertThat(open.getCounts().getDuplicatesRemoved()).isEqualTo(1);
        assertThat(h.views.refinementEdits(SPACE, session)).singleElement().satisfies(edit -> {
            assertThat(edit.getEventType()).isEqualTo("DuplicatesRemoved");
            assertThat(edit.getChanges()).singleElement().satisfies(c -> {
                assertThat(c.getBefore().getState()).isEqualTo(MemoryState.ACTIVE);
                assertThat(c.getAfter().getState()).isEqualTo(MemoryState.SOFT_DELETED);
            });
        });
        assertThat(h.views.audit(SPACE, 3, 10))
                .extracting(e -> e.getEventType())
                .containsExactly("DuplicatesRemoved", "RefinementStarted");
    }

    @Test
    void theCleanupIsRecordedEvenWhenThereIsNoDuplicate() {
        core("One");
        start(ADMIN);
        assertThat(((DuplicatesRemoved) h.chain().get(1).getPayload()).getRemoved())
                .isEmpty();
        assertThat(h.chain().get(2).getPayload()).isInstanceOf(RefinementStarted.class);
    }

    @Test
    void theCleanupKeepsConstitutionalCopiesAndNeverMixesTiers() {
        String early = core("Never share the address");
        String law = core("Never share the address");
        String workingCopy = working("Never share the address");
        String third = core("never share the address");
        h.submit(Requests.flag(SPACE, ADMIN, law, MemoryFlag.CONSTITUTIONAL, true));

        start(ADMIN);

        DuplicatesRemoved cleanup = (DuplicatesRemoved) h.chain().get(5).getPayload();
        assertThat(cleanup.getRemoved())
                .extracting(DuplicateRemoval::getMemoryId, DuplicateRemoval::getDuplicateOf)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(early, law),
                        org.assertj.core.groups.Tuple.tuple(third, law));
        assertThat(memory(law).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(memory(workingCopy).getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void aSecondStartWhileASessionIsOpenIsInvalidState() {
        core("One");
        start(ADMIN);
        int events = h.chain().size();
        assertRejected(
                h.submit(Requests.startRefinement(SPACE, WORKER, RefinementTrigger.TOKEN_BUDGET, null)),
                "INVALID_STATE");
        assertThat(h.chain()).hasSize(events);
    }

    @Test
    void onlyAdminsWorkersAndTheSystemStartSessions() {
        core("One");
        assertRejected(h.submit(Requests.startRefinement(SPACE, AGENT, RefinementTrigger.ADMIN, null)), "FORBIDDEN");
        assertRejected(
                h.submit(Requests.startRefinement(
                        SPACE, Requests.actor(ActorType.USER, "ana"), RefinementTrigger.ADMIN, null)),
                "FORBIDDEN");
        assertRejected(
                h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, 0)), "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null)
                        .setSessionId("r0000001abcd")),
                "INVALID_ARGUMENT");
        assertThat(h.chain()).hasSize(1);
        MemoryOutcome scheduled = h.submit(Requests.startRefinement(SPACE, WORKER, RefinementTrigger.SCHEDULE, 1_200));
        assertThat(scheduled.getAccepted()).isTrue();
        RefinementSession open = h.views.openRefinement(SPACE).orElseThrow();
        assertThat(open.getTrigger()).isEqualTo(RefinementTrigger.SCHEDULE);
        assertThat(open.getTargetTokens()).isEqualTo(1_200);
    }

    @Test
    void sessionOperationsOutsideTheOpenSessionAreNotInRefinement() {
        String a = core("Likes tea");
        String b = core("Drinks tea daily");
        String unknownSession = SessionIds.of(SPACE, 99);
        assertRejected(inSession(unknownSession, Requests.delete(SPACE, AGENT, a)), "NOT_IN_REFINEMENT");
        assertRejected(inSession(unknownSession, Requests.updateContent(SPACE, AGENT, a, "x")), "NOT_IN_REFINEMENT");
        assertRejected(
                inSession(unknownSession, Requests.consolidate(SPACE, AGENT, List.of(a, b), "tea", null)),
                "NOT_IN_REFINEMENT");
        assertRejected(
                h.submit(Requests.completeRefinement(SPACE, AGENT, unknownSession, "done")), "NOT_IN_REFINEMENT");
        assertRejected(h.submit(Requests.completeRefinement(SPACE, AGENT, null, "done")), "NOT_IN_REFINEMENT");

        String session = start(ADMIN);
        int events = h.chain().size();
        assertRejected(inSession(unknownSession, Requests.delete(SPACE, AGENT, a)), "NOT_IN_REFINEMENT");
        assertRejected(h.submit(Requests.completeRefinement(SPACE, AGENT, null, "done")), "NOT_IN_REFINEMENT");
        assertThat(h.chain()).hasSize(events);

        complete(session, "nothing to do");
        assertRejected(inSession(session, Requests.delete(SPACE, AGENT, a)), "NOT_IN_REFINEMENT");
        assertRejected(
                inSession(session, Requests.flag(SPACE, AGENT, a, MemoryFlag.CONSTITUTIONAL, true)),
                "NOT_IN_REFINEMENT");
    }

    @Test
    void agentsProtectOnlyInsideTheirSession() {
        String id = core("Always confirm before spending money");
        assertRejected(h.submit(Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, true)), "NOT_IN_REFINEMENT");
        String session = start(ADMIN);
        assertRejected(h.submit(Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, true)), "NOT_IN_REFINEMENT");
        assertThat(inSession(session, Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, true))
                        .getAccepted())
                .isTrue();
        assertThat(memory(id).getConstitutional()).isTrue();
        assertRejected(
                inSession(session, Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, false)), "FORBIDDEN");
        assertThat(h.views.openRefinement(SPACE).orElseThrow().getProtectedIds())
                .containsExactly(id);
    }

    @Test
    void constitutionalMemoriesCannotBeDeletedOrConsolidatedInsideASession() {
        String law = core("Never lie to the user");
        String other = core("Prefers short answers");
        h.submit(Requests.flag(SPACE, ADMIN, law, MemoryFlag.CONSTITUTIONAL, true));
        String session = start(ADMIN);
        int events = h.chain().size();
        assertRejected(inSession(session, Requests.delete(SPACE, AGENT, law)), "CONSTITUTIONAL");
        assertRejected(
                inSession(session, Requests.consolidate(SPACE, AGENT, List.of(other, law), "merged", null)),
                "CONSTITUTIONAL");
        assertThat(h.chain()).hasSize(events);
        assertThat(memory(other).getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void aConsolidationWithOneBadIdChangesNothing() {
        String a = core("Likes tea");
        String b = core("Drinks tea every morning");
        String c = core("Prefers green tea");
        String deleted = core("Used to drink coffee");
        h.submit(Requests.delete(SPACE, AGENT, deleted));
        String session = start(ADMIN);
        int events = h.chain().size();
        RefinementSession before = h.views.openRefinement(SPACE).orElseThrow();

        assertRejected(
                inSession(session, Requests.consolidate(SPACE, AGENT, List.of(a, b, c, "m0000zzz0000"), "tea", null)),
                "NOT_FOUND");
        assertRejected(
                inSession(session, Requests.consolidate(SPACE, AGENT, List.of(a, b, deleted), "tea", null)),
                "INVALID_STATE");
        assertRejected(
                inSession(session, Requests.consolidate(SPACE, AGENT, List.of(a, b, a), "tea", null)),
                "INVALID_ARGUMENT");

        assertThat(h.chain()).hasSize(events);
        assertThat(List.of(a, b, c))
                .allSatisfy(id -> assertThat(memory(id).getState()).isEqualTo(MemoryState.ACTIVE));
        assertThat(h.views.openRefinement(SPACE)).contains(before);
    }

    @Test
    void aConsolidationKeepsTheEarliestCreatedAtOfItsInputs() {
        Instant old = Instant.parse("2024-02-01T08:00:00Z");
        String late = core("Drinks tea every morning");
        String early = created(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder()
                        .setContent("Likes tea")
                        .setTier(Tier.CORE)
                        .setCreatedAt(old)
                        .build()));
        String session = start(ADMIN);
        h.advance(Duration.ofDays(2));
        MemoryOutcome merged = inSession(
                session,
                Requests.consolidate(
                        SPACE, AGENT, List.of(late, early), "Drinks tea every morning and likes it", "cluster"));
        assertThat(merged.getAccepted()).isTrue();
        Memory created = memory(merged.getMemoryId());
        assertThat(created.getCreatedAt()).isEqualTo(old);
        assertThat(created.getTier()).isEqualTo(Tier.CORE);
        assertThat(memory(late).getState()).isEqualTo(MemoryState.SUPERSEDED);
        assertThat(memory(early).getSupersededBy()).isEqualTo(created.getId());
        assertThat(last().getSessionId()).isEqualTo(session);
    }

    @Test
    void editsByOthersOutsideTheSessionAreNotCounted() {
        String a = core("Likes tea");
        String session = start(ADMIN);
        assertThat(h.submit(Requests.delete(SPACE, ADMIN, a)).getAccepted()).isTrue();
        RefinementSession open = h.views.openRefinement(SPACE).orElseThrow();
        assertThat(open.getCounts().getDeletions()).isZero();
        assertThat(h.views.refinementEdits(SPACE, session))
                .as("the admin's delete carried no session id")
                .isEmpty();
    }

    @Test
    void completingNeedsASummaryAndTheOpenSession() {
        core("One");
        String session = start(ADMIN);
        assertRejected(h.submit(Requests.completeRefinement(SPACE, AGENT, session, "  ")), "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.completeRefinement(
                        SPACE, Requests.actor(ActorType.SUBAGENT, "helper"), session, "done")),
                "FORBIDDEN");
        assertThat(h.views.openRefinement(SPACE)).isPresent();
    }

    /** The whole session: 20 memories consolidated into 3, 2 protected, one tightened, one pruned, then completed. */
    @Test
    void aSessionConsolidatesTwentyIntoThreeProtectsTwoAndCompletesWithAJournal() {
        List<String> cluster = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            cluster.add(core("Tea note " + i + ": the user drinks tea, detail number " + i + " about cups and times"));
        }
        String lawA = core("Never share the user's home address");
        String lawB = core("Always ask before spending money");
        String wordy =
                core("The user, who is called Ana, really quite likes it when answers are short and to the point");
        String stale = core("The user is travelling to Lisbon next week");
        String session = start(WORKER);
        RefinementSession opened = h.views.openRefinement(SPACE).orElseThrow();
        assertThat(opened.getLedgerSize()).isEqualTo(24);

        List<String> created = new ArrayList<>();
        for (List<String> part : List.of(cluster.subList(0, 7), cluster.subList(7, 14), cluster.subList(14, 20))) {
            MemoryOutcome o = inSession(
                    session,
                    Requests.consolidate(
                            SPACE, AGENT, part, "Tea habits, part " + (created.size() + 1), "one cluster"));
            assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
            created.add(o.getMemoryId());
        }
        for (String law : List.of(lawA, lawB)) {
            assertThat(inSession(session, Requests.flag(SPACE, AGENT, law, MemoryFlag.CONSTITUTIONAL, true))
                            .getAccepted())
                    .isTrue();
        }
        assertThat(inSession(session, Requests.updateContent(SPACE, AGENT, wordy, "Ana likes short answers"))
                        .getAccepted())
                .isTrue();
        assertThat(inSession(session, Requests.delete(SPACE, AGENT, stale)).getAccepted())
                .isTrue();
        int tokensNow = h.views.core(SPACE).tokens();

        MemoryOutcome done = h.submit(Requests.completeRefinement(SPACE, AGENT, session, "Merged the tea notes."));

        assertThat(done.getAccepted()).as(done.getMessage()).isTrue();
        RefinementCompleted completed = (RefinementCompleted) last().getPayload();
        int saved = opened.getCoreTokens() - tokensNow;
        assertThat(saved).isPositive();
        assertThat(completed.getSummary())
                .isEqualTo("Compressed 20 -> 3; saved ~" + saved
                        + " tokens; protected 2 constitutional memories; updated 1; deleted 1");
        assertThat(completed.getTokensBefore()).isEqualTo(opened.getCoreTokens());
        assertThat(completed.getTokensAfter()).isEqualTo(tokensNow);
        assertThat(completed.getProtectedIds()).containsExactly(lawA, lawB);
        assertThat(completed.getCounts().getConsolidations()).isEqualTo(3);
        assertThat(completed.getCounts().getConsolidatedInputs()).isEqualTo(20);

        Memory journal = memory(done.getMemoryId());
        assertThat(journal.getKind()).isEqualTo(MemoryKind.JOURNAL);
        assertThat(journal.getTier()).isEqualTo(Tier.WORKING);
        assertThat(journal.getContent()).isEqualTo(completed.getSummary() + "\n\nMerged the tea notes.");
        assertThat(h.views.core(SPACE).tokens())
                .as("the journal is not core memory")
                .isEqualTo(tokensNow);

        assertThat(h.views.openRefinement(SPACE)).isEmpty();
        RefinementSession closed = h.views.refinement(SPACE, session).orElseThrow();
        assertThat(closed.getCompletedSeq()).isEqualTo(done.getSeq());
        assertThat(closed.getSummary()).isEqualTo(completed.getSummary());
        assertThat(closed.getJournalId()).isEqualTo(journal.getId());
        assertThat(closed.getCompletedBy()).isEqualTo(AGENT);
        assertThat(h.views.refinements(SPACE)).containsExactly(closed);

        List<RefinementEdit> edits = h.views.refinementEdits(SPACE, session);
        assertThat(edits)
                .extracting(RefinementEdit::getEventType)
                .containsExactly(
                        "MemoriesConsolidated",
                        "MemoriesConsolidated",
                        "MemoriesConsolidated",
                        "MemoryProtected",
                        "MemoryProtected",
                        "MemoryUpdated",
                        "MemoryDeleted",
                        "RefinementCompleted");
        RefinementEdit update = edits.get(5);
        assertThat(update.getChanges()).singleElement().satisfies(c -> {
            assertThat(c.getBefore().getContent()).startsWith("The user, who is called Ana");
            assertThat(c.getAfter().getContent()).isEqualTo("Ana likes short answers");
        });
        assertThat(edits.get(0).getChanges())
                .hasSize(8)
                .allSatisfy(c -> assertThat(c.getAfter()).isNotNull());
        assertThat(h.views.audit(SPACE, done.getSeq() - 1, 1))
                .singleElement()
                .satisfies(e -> assertThat(e.getDescription()).contains(completed.getSummary()));

        // a new session can start once this one is completed
        assertThat(h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null))
                        .getAccepted())
                .isTrue();
    }

    @Test
    void aReplayOfTheChainRebuildsTheSameRefinementViews() {
        String a = core("Likes tea");
        String b = core("Drinks tea");
        core("likes tea");
        String session = start(ADMIN);
        inSession(session, Requests.consolidate(SPACE, AGENT, List.of(a, b), "Tea", null));
        complete(session, "done");
        try (ChainHarness fresh = new ChainHarness()) {
            h.chain().forEach(fresh::replayIntoProjection);
            assertThat(ViewSnapshot.of(fresh.views, SPACE)).isEqualTo(ViewSnapshot.of(h.views, SPACE));
        }
    }

    private void complete(String session, String summary) {
        MemoryOutcome o = h.submit(Requests.completeRefinement(SPACE, AGENT, session, summary));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
    }
}
