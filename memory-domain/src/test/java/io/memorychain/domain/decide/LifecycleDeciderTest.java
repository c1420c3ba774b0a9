package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static io.memorychain.domain.decide.Scenario.WORKER;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecayInputs;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.ExpireMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.Purges;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decay transitions, TTL expiry and restore (docs/architecture.md §7, §12) as given/when/then. */
class LifecycleDeciderTest {

    private final Scenario s = new Scenario();

    private static DecayInputs inputs(Instant last) {
        return new DecayInputs(last, last.plus(Duration.ofDays(30)), 30.0, 0L, 0.7, 1.2, 0.03);
    }

    private TransitionDecay to(String id, DecayStatus status) {
        return new TransitionDecay(id, status, 0.3, inputs(s.now()));
    }

    private String memory() {
        return s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Ana likes tea")
                                .setImportance(2)
                                .setCategory("event")
                                .build())
                .build());
    }

    private Memory current(String id) {
        return s.model().memory(SPACE, id);
    }

    private static void assertRejected(Decision decision, RejectionCode code) {
        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Reject.class, r -> assertThat(r.code()).isEqualTo(code));
    }

    @Test
    void onlyWorkersAndAdminsTransitionDecay() {
        String id = memory();

        assertRejected(s.when(s.request(AGENT, to(id, DecayStatus.FADING)).build()), RejectionCode.FORBIDDEN);
        assertThat(s.when(s.request(ADMIN, to(id, DecayStatus.FADING)).build())).isInstanceOf(Decision.Accept.class);
        assertRejected(
                s.when(s.request(AGENT, new ExpireMemory(id, s.now(), null)).build()), RejectionCode.FORBIDDEN);
    }

    @Test
    void aTransitionRecordsFromToScoreAndInputsAndKeepsTheDecayClock() {
        String id = memory();
        Instant created = current(id).getUpdatedAt();
        s.advance(Duration.ofDays(30));

        Decision decision = s.when(s.request(WORKER, to(id, DecayStatus.FADING)).build());
        s.given(s.request(WORKER, to(id, DecayStatus.FADING)).build());

        assertThat(decision).isInstanceOfSatisfying(Decision.Accept.class, a -> {
            assertThat(a.payload()).isInstanceOfSatisfying(DecayTransitioned.class, d -> {
                assertThat(d.getFrom()).isEqualTo(DecayStatus.ACTIVE);
                assertThat(d.getTo()).isEqualTo(DecayStatus.FADING);
                assertThat(d.getScore()).isEqualTo(0.3);
                assertThat(d.getInputs().getLambda()).isEqualTo(0.03);
            });
            assertThat(a.version()).isEqualTo(2);
        });
        Memory after = current(id);
        assertThat(after.getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(after.getDecayStatus()).isEqualTo(DecayStatus.FADING);
        assertThat(after.getVersion()).isEqualTo(2);
        assertThat(Evolver.decayClock(after))
                .as("a transition is not an access")
                .isEqualTo(created);
        assertThat(EventDescriptions.describe(s.events().get(1))).startsWith("decay: " + id + " active -> fading");
    }

    @Test
    void archivingHidesTheMemoryAsStateArchivedAndRestoreBringsItBackWithAFreshDecayClock() {
        String id = memory();
        s.given(
                s.request(WORKER, to(id, DecayStatus.FADING)).build(),
                s.request(WORKER, to(id, DecayStatus.DORMANT)).build(),
                s.request(WORKER, to(id, DecayStatus.ARCHIVED)).build());
        assertThat(current(id).getState()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(current(id).getDecayStatus()).isEqualTo(DecayStatus.ARCHIVED);
        s.advance(Duration.ofDays(10));
        Instant restoredAt = s.now();

        s.given(s.request(AGENT, new RestoreMemory(id)).build());

        Memory restored = current(id);
        assertThat(restored.getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(restored.getDecayStatus()).isEqualTo(DecayStatus.ACTIVE);
        assertThat(Evolver.decayClock(restored))
                .as("the restore event's time, not a wall clock")
                .isEqualTo(restoredAt);
    }

    @Test
    void rejectsTransitionsOfAMemoryThatIsNotActive() {
        String id = memory();
        s.given(s.request(WORKER, to(id, DecayStatus.ARCHIVED)).build());

        Decision decision =
                s.when(s.request(WORKER, to(id, DecayStatus.DORMANT)).build());

        assertRejected(decision, RejectionCode.INVALID_STATE);
        assertThat(((Decision.Reject) decision).message()).contains("archived").contains("restore");
    }

    @Test
    void rejectsATransitionToTheStatusTheMemoryAlreadyHas() {
        String id = memory();

        assertRejected(s.when(s.request(WORKER, to(id, DecayStatus.ACTIVE)).build()), RejectionCode.INVALID_STATE);
    }

    @Test
    void pinnedMemoriesNeverDecayNorExpire() {
        String id = memory();
        s.given(s.request(AGENT, new SetFlag(id, MemoryFlag.PINNED, true)).build());

        assertRejected(s.when(s.request(WORKER, to(id, DecayStatus.FADING)).build()), RejectionCode.INVALID_STATE);
        assertRejected(
                s.when(s.request(WORKER, new ExpireMemory(id, s.now(), null)).build()), RejectionCode.INVALID_STATE);
    }

    @Test
    void constitutionalMemoriesNeverExpireNorGetArchived() {
        String id = memory();
        s.given(s.request(ADMIN, new SetFlag(id, MemoryFlag.CONSTITUTIONAL, true))
                .build());

        assertRejected(
                s.when(s.request(WORKER, new ExpireMemory(id, s.now(), null)).build()), RejectionCode.CONSTITUTIONAL);
        assertRejected(s.when(s.request(WORKER, to(id, DecayStatus.ARCHIVED)).build()), RejectionCode.CONSTITUTIONAL);
        assertThat(s.when(s.request(WORKER, to(id, DecayStatus.FADING)).build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void transitionsAndExpiryHonourExpectedVersion() {
        String id = memory();
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(id)
                                .setContent("Ana loves tea")
                                .build())
                .build());

        assertRejected(
                s.when(s.request(WORKER, to(id, DecayStatus.FADING))
                        .setExpectedVersion(1)
                        .build()),
                RejectionCode.VERSION_CONFLICT);
        assertRejected(
                s.when(s.request(WORKER, new ExpireMemory(id, s.now(), null))
                        .setExpectedVersion(1)
                        .build()),
                RejectionCode.VERSION_CONFLICT);
        assertThat(s.when(s.request(WORKER, to(id, DecayStatus.FADING))
                        .setExpectedVersion(2)
                        .build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void unknownMemoriesAreNotFoundAndBadScoresInvalid() {
        String id = memory();

        assertRejected(
                s.when(s.request(WORKER, to("m-nope", DecayStatus.FADING)).build()), RejectionCode.NOT_FOUND);
        assertRejected(
                s.when(s.request(WORKER, new TransitionDecay(id, DecayStatus.FADING, Double.NaN, inputs(s.now())))
                        .build()),
                RejectionCode.INVALID_ARGUMENT);
    }

    @Test
    void expiryKeepsSoftDeletedMemoriesIndefinitelyByDefault() {
        String id = memory();

        s.given(s.request(WORKER, new ExpireMemory(id, s.now(), "unread for 61 days"))
                .build());

        Memory expired = current(id);
        assertThat(expired.getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(expired.getPurgeAt())
                .as("docs/architecture.md §9: no automatic purging")
                .isNull();
        assertThat(((MemoryExpired) s.events().get(1).getPayload()).getPurgeAt())
                .isNull();
        assertThat(EventDescriptions.describe(s.events().get(1))).contains("kept indefinitely");
    }

    @Test
    void expirySetsPurgeAtFromTheCategoryPolicyAndRestoreClearsIt() {
        CategoryPolicy policy = new CategoryPolicy(
                Map.of(
                        "event",
                        new Category(
                                "event",
                                ContextMode.RAG,
                                30,
                                new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, Duration.ofDays(30)))),
                Map.of());
        Scenario scenario = new Scenario(WriteSettings.defaults().withCategories(policy));
        String id = scenario.given(scenario.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("went hiking")
                                .setCategory("event")
                                .setImportance(2)
                                .build())
                .build());
        Instant expiredAt = scenario.now();

        scenario.given(
                scenario.request(WORKER, new ExpireMemory(id, expiredAt, null)).build());
        assertThat(scenario.model().memory(SPACE, id).getPurgeAt()).isEqualTo(expiredAt.plus(Duration.ofDays(30)));

        scenario.given(scenario.request(AGENT, new RestoreMemory(id)).build());
        Memory restored = scenario.model().memory(SPACE, id);
        assertThat(restored.getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(restored.getPurgeAt()).isNull();
    }

    @Test
    void anUpdateReinforcesTheDecayClockButLeavesTheStatusToTheWorker() {
        String id = memory();
        s.advance(Duration.ofDays(30));
        s.given(s.request(WORKER, to(id, DecayStatus.FADING)).build());
        s.advance(Duration.ofDays(1));
        Instant updatedAt = s.now();

        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setImportance(4).build())
                .build());

        Memory updated = current(id);
        assertThat(Evolver.decayClock(updated)).isEqualTo(updatedAt);
        assertThat(updated.getDecayStatus())
                .as("only a DecayTransitioned event changes it")
                .isEqualTo(DecayStatus.FADING);
    }

    @Test
    void restoreStillRefusesActiveMemories() {
        String id = memory();

        assertRejected(s.when(s.request(AGENT, new RestoreMemory(id)).build()), RejectionCode.INVALID_STATE);
    }

    private Scenario withPurgeAfter(Duration purgeAfter) {
        CategoryPolicy policy = new CategoryPolicy(
                Map.of(
                        "event",
                        new Category(
                                "event",
                                ContextMode.RAG,
                                30,
                                new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, purgeAfter))),
                Map.of());
        return new Scenario(WriteSettings.defaults().withCategories(policy));
    }

    private static String expired(Scenario scenario) {
        String id = scenario.given(scenario.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("went hiking")
                                .setCategory("event")
                                .setImportance(2)
                                .setTags(java.util.List.of("hike"))
                                .build())
                .build());
        scenario.given(scenario.request(WORKER, new ExpireMemory(id, scenario.now(), null))
                .build());
        return id;
    }

    @Test
    void aWorkerPurgesASoftDeletedMemoryOnlyOnceItsPurgeAtHasPassed() {
        Scenario scenario = withPurgeAfter(Duration.ofDays(30));
        String id = expired(scenario);
        scenario.advance(Duration.ofDays(29));

        assertRejected(
                scenario.when(
                        scenario.request(WORKER, new PurgeMemory(id, null)).build()),
                RejectionCode.INVALID_STATE);

        scenario.advance(Duration.ofDays(1));
        Instant purgeAt = scenario.model().memory(SPACE, id).getPurgeAt();
        scenario.given(scenario.request(WORKER, new PurgeMemory(id, null)).build());

        MemoryPurged event = (MemoryPurged)
                scenario.events().get(scenario.events().size() - 1).getPayload();
        assertThat(event.getMemoryId()).isEqualTo(id);
        assertThat(event.getPurgeAt()).isEqualTo(purgeAt);
        Memory tombstone = scenario.model().memory(SPACE, id);
        assertThat(tombstone.getPurgedAt())
                .isEqualTo(scenario.events().get(scenario.events().size() - 1).getOccurredAt());
        assertThat(tombstone.getContent()).isEqualTo(Purges.MARKER);
        assertThat(tombstone.getTags()).isEmpty();
        assertThat(tombstone.getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(EventDescriptions.describe(
                        scenario.events().get(scenario.events().size() - 1)))
                .isEqualTo("purged " + id);
    }

    @Test
    void aUserOrAnAdminErasesAnyMemoryOnceWithAReasonIntoAnErasedTombstone() {
        String pinned = memory();
        s.given(s.request(AGENT, new io.memorychain.avro.SetFlag(pinned, MemoryFlag.PINNED, true))
                .build());
        io.memorychain.avro.Actor user = Scenario.actor(io.memorychain.avro.ActorType.USER, "dana");

        assertRejected(
                s.when(s.request(AGENT, new io.memorychain.avro.EraseMemory(pinned, "x"))
                        .build()),
                RejectionCode.FORBIDDEN);
        assertRejected(
                s.when(s.request(WORKER, new io.memorychain.avro.EraseMemory(pinned, "x"))
                        .build()),
                RejectionCode.FORBIDDEN);
        assertRejected(
                s.when(s.request(user, new io.memorychain.avro.EraseMemory(pinned, ""))
                        .build()),
                RejectionCode.INVALID_ARGUMENT);
        s.given(s.request(user, new io.memorychain.avro.EraseMemory(pinned, "forget this"))
                .build());

        io.memorychain.avro.MemoryErased event = (io.memorychain.avro.MemoryErased)
                s.events().get(s.events().size() - 1).getPayload();
        assertThat(event.getMemoryId()).isEqualTo(pinned);
        assertThat(event.getWasPurged()).isFalse();
        Memory tombstone = s.model().memory(SPACE, pinned);
        assertThat(Purges.isErased(tombstone)).isTrue();
        assertThat(tombstone.getContent()).isEqualTo(Purges.ERASED);
        assertThat(tombstone.getPurgedAt()).isNotNull();
        assertRejected(
                s.when(s.request(ADMIN, new io.memorychain.avro.EraseMemory(pinned, "again"))
                        .build()),
                RejectionCode.INVALID_STATE);
        assertRejected(
                s.when(s.request(AGENT, new io.memorychain.avro.RestoreMemory(pinned))
                        .build()),
                RejectionCode.INVALID_STATE);
    }

    @Test
    void aWorkerNeverPurgesAMemoryKeptIndefinitely() {
        Scenario scenario = withPurgeAfter(null);
        String id = expired(scenario);
        scenario.advance(Duration.ofDays(3650));

        assertRejected(
                scenario.when(
                        scenario.request(WORKER, new PurgeMemory(id, null)).build()),
                RejectionCode.INVALID_STATE);
    }

    @Test
    void onlyWorkersAndAdminsPurgeAndAnAdminNeedsAReasonButNoPurgeAt() {
        String id = memory();
        s.given(s.request(AGENT, new DeleteMemory(id, "wrong")).build());

        assertRejected(s.when(s.request(AGENT, new PurgeMemory(id, "gdpr")).build()), RejectionCode.FORBIDDEN);
        assertRejected(s.when(s.request(ADMIN, new PurgeMemory(id, null)).build()), RejectionCode.INVALID_ARGUMENT);
        assertThat(s.when(s.request(ADMIN, new PurgeMemory(id, "user asked to forget"))
                        .build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void onlySoftDeletedUnpinnedNonConstitutionalMemoriesArePurged() {
        String active = memory();
        assertRejected(s.when(s.request(ADMIN, new PurgeMemory(active, "x")).build()), RejectionCode.INVALID_STATE);
        assertRejected(s.when(s.request(ADMIN, new PurgeMemory("m-nope", "x")).build()), RejectionCode.NOT_FOUND);

        String constitutional = memory();
        s.given(s.request(ADMIN, new SetFlag(constitutional, MemoryFlag.CONSTITUTIONAL, true))
                .build());
        assertRejected(
                s.when(s.request(ADMIN, new PurgeMemory(constitutional, "x")).build()), RejectionCode.CONSTITUTIONAL);

        String pinned = memory();
        s.given(s.request(AGENT, new SetFlag(pinned, MemoryFlag.PINNED, true)).build());
        s.given(s.request(AGENT, new DeleteMemory(pinned, "x")).build());
        assertRejected(s.when(s.request(ADMIN, new PurgeMemory(pinned, "x")).build()), RejectionCode.INVALID_STATE);
    }

    @Test
    void aPurgedMemoryCanNeitherBeRestoredNorPurgedAgainNorLinkedNorChanged() {
        String id = memory();
        String other = memory();
        s.given(s.request(AGENT, new DeleteMemory(id, "wrong")).build());
        s.given(s.request(ADMIN, new PurgeMemory(id, "user asked to forget")).build());

        assertRejected(s.when(s.request(AGENT, new RestoreMemory(id)).build()), RejectionCode.INVALID_STATE);
        assertRejected(s.when(s.request(ADMIN, new PurgeMemory(id, "again")).build()), RejectionCode.INVALID_STATE);
        assertRejected(
                s.when(s.request(AGENT, new LinkMemories(other, id, "related_to", 0.9))
                        .build()),
                RejectionCode.INVALID_STATE);
        assertRejected(
                s.when(s.request(AGENT, new SetFlag(id, MemoryFlag.PINNED, true))
                        .build()),
                RejectionCode.INVALID_STATE);
    }
}
