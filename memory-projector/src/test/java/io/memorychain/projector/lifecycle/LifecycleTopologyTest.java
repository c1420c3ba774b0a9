package io.memorychain.projector.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.ExpireMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.domain.Purges;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.DeltaHeader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lifecycle worker on TopologyTestDriver against the real sequencer and projection (ChainHarness). */
class LifecycleTopologyTest {

    private static final String SPACE = "life";
    private static final LifecycleSettings SETTINGS =
            LifecycleSettings.defaults().withCheckInterval(Duration.ofHours(1));

    private final ChainHarness h = new ChainHarness();
    private final List<LifecycleRig> rigs = new ArrayList<>();

    @AfterEach
    void close() {
        rigs.forEach(LifecycleRig::close);
        h.close();
    }

    private LifecycleRig rig(LifecycleSettings settings) {
        LifecycleRig rig = new LifecycleRig(h, settings);
        rigs.add(rig);
        return rig;
    }

    private String create(CreateMemory.Builder memory) {
        MemoryOutcome outcome = h.submit(Requests.create(SPACE, ChainHarness.AGENT, memory.build()));
        assertThat(outcome.getAccepted()).isTrue();
        return outcome.getMemoryId();
    }

    private Memory memory(String id) {
        return h.views.memory(SPACE, id).orElseThrow();
    }

    private List<DecayTransitioned> transitions() {
        return h.chain().stream()
                .map(MemoryEvent::getPayload)
                .filter(DecayTransitioned.class::isInstance)
                .map(DecayTransitioned.class::cast)
                .toList();
    }

    @Test
    void aReadMemoryStaysActiveWhileAnUnreadOneWalksToArchivedThroughEventsSurfacedOnceAndARestoreBringsItBack() {
        LifecycleRig rig = rig(SETTINGS);
        String read = create(CreateMemory.newBuilder()
                .setContent("The user takes the 8:10 train")
                .setThreadId("t1"));
        String unread = create(CreateMemory.newBuilder()
                .setContent("The user once tried pottery")
                .setThreadId("t1"));
        long rev = h.views.threadRevision(SPACE, "t1");
        List<String> headers = new ArrayList<>();

        for (int day = 1; day <= 110; day++) {
            h.advance(Duration.ofDays(1));
            if (day % 7 == 0) {
                rig.read(SPACE, read);
            }
            rig.check();
            String header = DeltaHeader.format(rev, h.views.threadChanges(SPACE, "t1", rev, 50));
            if (!header.isEmpty()) {
                headers.add(header);
                rev = h.views.threadRevision(SPACE, "t1");
            }
        }

        assertThat(transitions())
                .allSatisfy(t -> assertThat(t.getMemoryId()).isEqualTo(unread))
                .extracting(t -> t.getFrom() + "->" + t.getTo())
                .containsExactly("ACTIVE->FADING", "FADING->DORMANT", "DORMANT->ARCHIVED");
        assertThat(transitions())
                .allSatisfy(t -> assertThat(t.getInputs().getAccessCount()).isZero());
        assertThat(memory(read).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(memory(read).getDecayStatus()).isEqualTo(DecayStatus.ACTIVE);
        assertThat(memory(unread).getState()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(rig.outcomes).allSatisfy(o -> assertThat(o.getAccepted()).isTrue());
        assertThat(rig.published)
                .extracting(MemoryRequest::getRequestId)
                .doesNotHaveDuplicates()
                .containsExactly(
                        "decay:life:" + unread + ":1:fading",
                        "decay:life:" + unread + ":2:dormant",
                        "decay:life:" + unread + ":3:archived");
        assertThat(rig.published)
                .allSatisfy(r -> assertThat(
                                r.getActor().getType() + ":" + r.getActor().getId())
                        .isEqualTo("WORKER:lifecycle"));
        assertThat(headers)
                .as("each transition surfaces once in the delta header")
                .hasSize(3);
        assertThat(headers.get(0)).contains("fading: The user once tried pottery");
        assertThat(headers.get(1)).contains("dormant: The user once tried pottery");
        assertThat(headers.get(2)).contains("archived: The user once tried pottery");
        assertThat(h.views.audit(SPACE, 0, 100))
                .extracting(AuditEntry::getDescription)
                .anySatisfy(d -> assertThat(d).startsWith("decay: " + unread + " dormant -> archived"));

        assertThat(h.views.history(SPACE, unread))
                .extracting(e -> e.getEventType() + " " + e.getAfter().getDecayStatus())
                .containsSubsequence(
                        "DecayTransitioned FADING", "DecayTransitioned DORMANT", "DecayTransitioned ARCHIVED");

        h.submit(LifecycleRig.restore(SPACE, unread));
        h.advance(Duration.ofDays(1));

        assertThat(memory(unread).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(memory(unread).getDecayStatus()).isEqualTo(DecayStatus.ACTIVE);
        assertThat(rig.check()).as("the restore restarted its decay clock").isEmpty();
        assertThat(DeltaHeader.format(rev, h.views.threadChanges(SPACE, "t1", rev, 50)))
                .contains("restored:");
    }

    @Test
    void theStatusFollowsTheSeedsThresholdsInChainTime() {
        LifecycleRig rig = rig(SETTINGS);
        String id = create(CreateMemory.newBuilder().setContent("Parked on level 3"));
        Instant created = memory(id).getCreatedAt();
        List<Long> days = new ArrayList<>();

        for (int day = 1; day <= 100; day++) {
            h.advance(Duration.ofDays(1));
            if (!rig.check().isEmpty()) {
                days.add(Duration.between(created, h.clock.instant()).toDays());
            }
        }

        // semantic, medium confidence, never read: 0.84 * e^(-0.03 d): < 0.5 after 17.3 days, < 0.2 after 47.8,
        // < 0.05 after 94.0
        assertThat(days).containsExactly(18L, 48L, 95L);
    }

    @Test
    void readsReinforceAFadingMemoryBackToActive() {
        LifecycleRig rig = rig(SETTINGS);
        String id = create(CreateMemory.newBuilder().setContent("Uses vim keybindings"));
        h.advance(Duration.ofDays(20));
        assertThat(rig.check()).hasSize(1);
        assertThat(memory(id).getDecayStatus()).isEqualTo(DecayStatus.FADING);

        rig.read(SPACE, id);
        List<MemoryRequest> requests = rig.check();

        assertThat(requests)
                .singleElement()
                .satisfies(
                        r -> assertThat(((TransitionDecay) r.getOp()).getTo()).isEqualTo(DecayStatus.ACTIVE));
        assertThat(memory(id).getDecayStatus()).isEqualTo(DecayStatus.ACTIVE);
        assertThat(memory(id).getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void anImportedMemoryWithAnOldCreatedAtStartsDecayingWhenItEntersTheChain() {
        LifecycleRig rig = rig(SETTINGS);
        Instant yearsAgo = h.clock.instant().minus(Duration.ofDays(800));
        String id =
                create(CreateMemory.newBuilder().setContent("Graduated in 2024").setCreatedAt(yearsAgo));

        assertThat(rig.check()).as("not archived before anyone could read it").isEmpty();
        h.advance(Duration.ofDays(20));
        assertThat(rig.check())
                .singleElement()
                .satisfies(
                        r -> assertThat(((TransitionDecay) r.getOp()).getTo()).isEqualTo(DecayStatus.FADING));
        assertThat(memory(id).getCreatedAt()).isEqualTo(yearsAgo);
    }

    @Test
    void pinnedMemoriesAndBlocksNeverDecay() {
        LifecycleRig rig = rig(SETTINGS);
        String pinned =
                create(CreateMemory.newBuilder().setContent("Door code 4471").setPinned(true));
        h.submit(Requests.block(SPACE, ChainHarness.AGENT, "persona", "A helpful planner"));

        h.advance(Duration.ofDays(400));

        assertThat(rig.check()).isEmpty();
        assertThat(memory(pinned).getDecayStatus()).isEqualTo(DecayStatus.ACTIVE);
    }

    @Test
    void aPendingRequestIsNotPublishedAgainAndAReplayAsksUnderTheSameIdsSoTheChainDoesNotGrow() {
        LifecycleRig rig = rig(SETTINGS);
        create(CreateMemory.newBuilder().setContent("Likes green tea"));
        h.advance(Duration.ofDays(20));
        int before = h.chain().size();
        List<MemoryRequest> first = rig.checkSeeing(before);
        assertThat(first).hasSize(1);
        assertThat(rig.checkSeeing(before))
                .as("still unanswered: not published twice")
                .isEmpty();
        MemoryOutcome answered = h.submit(first.get(0));
        int after = h.chain().size();

        LifecycleRig replay = rig(SETTINGS); // a new application id: replays the chain from the start
        List<MemoryRequest> replayed = replay.checkSeeing(before);
        MemoryOutcome again = h.submit(replayed.get(0));

        assertThat(replayed)
                .extracting(MemoryRequest::getRequestId)
                .containsExactly(first.get(0).getRequestId());
        assertThat(again.getSeq())
                .as("the sequencer answers a known request id with its outcome")
                .isEqualTo(answered.getSeq());
        assertThat(h.chain()).hasSize(after);
    }

    @Test
    void aCategoryTtlSoftDeletesUnreadUnimportantMemoriesAndKeepsThemIndefinitelyByDefault() {
        CategoryPolicy policy = new CategoryPolicy(
                Map.of(
                        "event",
                        new Category(
                                "event",
                                ContextMode.RAG,
                                30,
                                new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, null))),
                Map.of());
        LifecycleRig rig = rig(SETTINGS.withCategories(policy));
        String minor = create(CreateMemory.newBuilder()
                .setContent("Had pasta for lunch")
                .setCategory("event")
                .setImportance(2)
                .setThreadId("t9"));
        String major = create(CreateMemory.newBuilder()
                .setContent("Started a new job")
                .setCategory("event")
                .setImportance(4));

        for (int day = 1; day <= 61; day++) {
            h.advance(Duration.ofDays(1));
            rig.check();
        }

        assertThat(memory(minor).getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(memory(minor).getPurgeAt())
                .as("docs/architecture.md §9: kept indefinitely")
                .isNull();
        assertThat(memory(major).getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(rig.published)
                .filteredOn(r -> r.getOp() instanceof ExpireMemory)
                .singleElement()
                .satisfies(r -> assertThat(r.getRequestId()).startsWith("expire:life:" + minor + ":"));
        assertThat(h.chain())
                .extracting(MemoryEvent::getPayload)
                .filteredOn(MemoryExpired.class::isInstance)
                .hasSize(1);
        assertThat(h.views.threadChanges(SPACE, "t9", 0, 50))
                .extracting(c -> c.getChange())
                .contains("expired");
    }

    @Test
    void aSoftDeletedMemoryIsPurgedOnceItsPurgeAtPassesAndNoViewServesItsTextAnyMore() {
        CategoryPolicy policy = new CategoryPolicy(
                Map.of(
                        "event",
                                new Category(
                                        "event",
                                        ContextMode.RAG,
                                        30,
                                        new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, Duration.ofDays(30))),
                        "note",
                                new Category(
                                        "note",
                                        ContextMode.RAG,
                                        30,
                                        new CategoryPolicy.Lifecycle(Duration.ofDays(60), 3, null))),
                Map.of());
        try (ChainHarness e = new ChainHarness(
                io.memorychain.domain.decide.WriteSettings.defaults().withCategories(policy), SharedEmbedder.get())) {
            LifecycleRig rig = new LifecycleRig(e, SETTINGS.withCategories(policy));
            rigs.add(rig);
            String purged = e.submit(Requests.create(
                            SPACE,
                            ChainHarness.AGENT,
                            CreateMemory.newBuilder()
                                    .setContent("Booked a dentist appointment at Smile Clinic")
                                    .setCategory("event")
                                    .setImportance(2)
                                    .setThreadId("t5")
                                    .setSummary("dentist at Smile Clinic")
                                    .build()))
                    .getMemoryId();
            String kept = e.submit(Requests.create(
                            SPACE,
                            ChainHarness.AGENT,
                            CreateMemory.newBuilder()
                                    .setContent("Borrowed a ladder from the neighbour")
                                    .setCategory("note")
                                    .setImportance(2)
                                    .build()))
                    .getMemoryId();
            String pinned = e.submit(Requests.create(
                            SPACE,
                            ChainHarness.AGENT,
                            CreateMemory.newBuilder()
                                    .setContent("Dentist appointments are on Tuesdays")
                                    .setImportance(4)
                                    .setPinned(true)
                                    .build()))
                    .getMemoryId();
            assertThat(e.submit(Requests.link(SPACE, ChainHarness.AGENT, pinned, purged, "related_to", 0.9))
                            .getAccepted())
                    .isTrue();
            assertThat(e.views.embedding(SPACE, purged)).isPresent();

            for (int day = 1; day <= 61; day++) {
                e.advance(Duration.ofDays(1));
                rig.check();
            }
            assertThat(e.views.memory(SPACE, purged).orElseThrow().getState()).isEqualTo(MemoryState.SOFT_DELETED);
            assertThat(e.views.memory(SPACE, purged).orElseThrow().getPurgeAt()).isNotNull();
            assertThat(rig.published).noneMatch(r -> r.getOp() instanceof PurgeMemory);

            for (int day = 1; day <= 31; day++) {
                e.advance(Duration.ofDays(1));
                rig.check();
            }

            assertThat(rig.published)
                    .filteredOn(r -> r.getOp() instanceof PurgeMemory)
                    .singleElement()
                    .satisfies(r -> assertThat(r.getRequestId()).startsWith("purge:life:" + purged + ":"));
            assertThat(rig.outcomes).allSatisfy(o -> assertThat(o.getAccepted()).isTrue());
            assertThat(e.chain())
                    .extracting(MemoryEvent::getPayload)
                    .filteredOn(MemoryPurged.class::isInstance)
                    .singleElement()
                    .satisfies(p -> assertThat(((MemoryPurged) p).getMemoryId()).isEqualTo(purged));
            Memory tombstone = e.views.memory(SPACE, purged).orElseThrow();
            assertThat(tombstone.getContent()).isEqualTo(Purges.MARKER);
            assertThat(tombstone.getSummary()).isNull();
            assertThat(tombstone.getPurgedAt()).isNotNull();
            assertThat(e.views.embedding(SPACE, purged)).isEmpty();
            assertThat(e.views.relations(SPACE, pinned)).isEmpty();
            assertThat(e.views.relations(SPACE, purged)).isEmpty();
            List<Hit> hits = e.views.search(SearchRequest.builder(SPACE)
                    .text("dentist Smile Clinic")
                    .mode(SearchMode.BM25)
                    .internalStates(EnumSet.allOf(MemoryState.class))
                    .topK(10)
                    .build());
            assertThat(hits).extracting(Hit::id).contains(pinned).doesNotContain(purged);
            assertThat(e.views.history(SPACE, purged)).isNotEmpty().allSatisfy(entry -> {
                for (Memory m : new Memory[] {entry.getBefore(), entry.getAfter()}) {
                    if (m != null) {
                        assertThat(m.getContent()).isEqualTo(Purges.MARKER);
                        assertThat(m.getSummary()).isNull();
                    }
                }
            });
            assertThat(e.views.audit(SPACE, 0, 1000))
                    .extracting(AuditEntry::getDescription)
                    .noneMatch(d -> d.contains("Smile Clinic"))
                    .anyMatch(d -> d.equals("created " + purged + ": " + Purges.MARKER));
            assertThat(e.views.threadChanges(SPACE, "t5", 0, 50))
                    .extracting(c -> c.getText())
                    .containsOnly(Purges.MARKER);
            assertThat(e.views.threadChanges(SPACE, "t5", 0, 50))
                    .extracting(c -> c.getChange())
                    .contains("purged");

            Memory keptNow = e.views.memory(SPACE, kept).orElseThrow();
            assertThat(keptNow.getState())
                    .as("no purge_after: kept indefinitely (seed 003)")
                    .isEqualTo(MemoryState.SOFT_DELETED);
            assertThat(keptNow.getPurgeAt()).isNull();
            assertThat(keptNow.getContent()).isEqualTo("Borrowed a ladder from the neighbour");

            int chainSize = e.chain().size();
            assertThat(rig.check()).as("nothing more to ask").isEmpty();
            LifecycleRig replay = new LifecycleRig(e, SETTINGS.withCategories(policy));
            rigs.add(replay);
            assertThat(replay.check())
                    .as("a replay of the chain republishes nothing")
                    .isEmpty();
            assertThat(e.chain()).hasSize(chainSize);
            assertThat(e.views.history(SPACE, purged))
                    .extracting(HistoryEntry::getEventType)
                    .last()
                    .isEqualTo("MemoryPurged");
        }
    }
}
