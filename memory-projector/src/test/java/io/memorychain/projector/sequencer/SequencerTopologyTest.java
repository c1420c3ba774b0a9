package io.memorychain.projector.sequencer;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.Rules;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.DeadLetterHeaders;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.projector.ChainHarness;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SequencerTopologyTest {

    private static final String SPACE = "acme-planner";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content) {
        MemoryOutcome o = h.submit(Requests.create(SPACE, AGENT, content));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private void assertRejected(MemoryOutcome outcome, String code) {
        assertThat(outcome.getAccepted()).isFalse();
        assertThat(outcome.getCode()).isEqualTo(code);
        assertThat(outcome.getMessage()).isNotBlank();
        assertThat(outcome.getSeq()).isNull();
    }

    @Test
    void acceptedRequestsBecomeSignedLinkedEventsWithGaplessSeqs() {
        create("User prefers dark mode");
        create("User uses VS Code");
        create("User writes TypeScript");
        List<MemoryEvent> chain = h.chain();
        assertThat(chain).extracting(MemoryEvent::getSeq).containsExactly(1L, 2L, 3L);
        assertThat(Canonical.toArray(chain.get(0).getPrevHash())).isEqualTo(Canonical.GENESIS);
        KeyRing ring = h.keys.publicRing();
        for (int i = 0; i < chain.size(); i++) {
            MemoryEvent e = chain.get(i);
            byte[] hash = Canonical.toArray(e.getHash());
            assertThat(hash).isEqualTo(Canonical.hash(e));
            assertThat(ring.verify(e.getKeyId(), hash, Canonical.toArray(e.getSignature())))
                    .isTrue();
            if (i > 0) {
                assertThat(Canonical.toArray(e.getPrevHash()))
                        .isEqualTo(Canonical.toArray(chain.get(i - 1).getHash()));
            }
        }
    }

    @Test
    void chainsOfDifferentSpacesAreIndependent() {
        h.submit(Requests.create("space-a", AGENT, "a1"));
        h.submit(Requests.create("space-b", AGENT, "b1"));
        h.submit(Requests.create("space-a", AGENT, "a2"));
        assertThat(h.chain())
                .extracting(e -> e.getSpace() + "#" + e.getSeq())
                .containsExactly("space-a#1", "space-b#1", "space-a#2");
    }

    @Test
    void repeatedRequestIdReturnsTheOriginalOutcomeWithoutANewEvent() {
        var request = Requests.create(SPACE, AGENT, "remember me").build();
        MemoryOutcome first = h.submit(request);
        MemoryOutcome again = h.submit(request);
        assertThat(again).isEqualTo(first);
        assertThat(h.chain()).hasSize(1);
    }

    @Test
    void aRequestIdIsRememberedForItsRetentionAndForgottenAfter() {
        try (ChainHarness shortMemory = new ChainHarness(new WriteSettings(
                Rules.DEFAULT_MAX_CONTENT_BYTES, Rules.DEFAULT_BLOCK_LABELS, 100, Duration.ofHours(1)))) {
            var request = Requests.create(SPACE, AGENT, "remember me").build();
            Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
            MemoryOutcome first = shortMemory.submitAt(request, t0);
            assertThat(shortMemory.submitAt(request, t0.plus(Duration.ofMinutes(59))))
                    .isEqualTo(first);
            MemoryOutcome muchLater = shortMemory.submitAt(request, t0.plus(Duration.ofHours(3)));
            assertThat(muchLater.getSeq()).isEqualTo(2L);
            assertThat(shortMemory.chain()).hasSize(2);
        }
    }

    @Test
    void outcomeCarriesSeqIdAndVersion() {
        MemoryOutcome o = h.submit(Requests.create(SPACE, AGENT, "x"));
        assertThat(o.getSeq()).isEqualTo(1L);
        assertThat(o.getVersion()).isEqualTo(1);
        assertThat(o.getMemoryId()).startsWith("m0000001");
    }

    @Test
    void rejectsUnknownIdAndIdOfAnotherSpaceAsNotFound() {
        String foreign =
                h.submit(Requests.create("other-space", AGENT, "theirs")).getMemoryId();
        assertRejected(h.submit(Requests.updateContent(SPACE, AGENT, "m0000zzz0000", "x")), "NOT_FOUND");
        assertRejected(h.submit(Requests.delete(SPACE, AGENT, foreign)), "NOT_FOUND");
        assertThat(h.chain()).hasSize(1);
    }

    @Test
    void rejectsStaleExpectedVersion() {
        String id = create("v1");
        h.submit(Requests.updateContent(SPACE, AGENT, id, "v2").setExpectedVersion(1));
        assertRejected(
                h.submit(Requests.updateContent(SPACE, AGENT, id, "v3").setExpectedVersion(1)), "VERSION_CONFLICT");
        assertThat(h.chain()).hasSize(2);
    }

    @Test
    void rejectsContentOverTheLimitAsTooLarge() {
        String big = "x".repeat(Rules.DEFAULT_MAX_CONTENT_BYTES + 1);
        assertRejected(h.submit(Requests.create(SPACE, AGENT, big)), "TOO_LARGE");
        assertThat(h.chain()).isEmpty();
    }

    @Test
    void rejectsBlankContentAndOutOfRangeImportance() {
        assertRejected(h.submit(Requests.create(SPACE, AGENT, "  ")), "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("x")
                                .setImportance(9)
                                .build())),
                "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("x")
                                .setKind(MemoryKind.BLOCK)
                                .build())),
                "INVALID_ARGUMENT");
        assertRejected(h.submit(Requests.create("bad space!", AGENT, "x")), "INVALID_ARGUMENT");
        assertThat(h.chain()).isEmpty();
    }

    @Test
    void enforcesTheSharedFieldLimitsAtTheirBoundaries() {
        java.util.function.IntFunction<List<String>> tags = n ->
                java.util.stream.IntStream.range(0, n).mapToObj(i -> "t" + i).toList();
        assertThat(h.submit(Requests.create(
                                SPACE,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setContent("x")
                                        .setTags(tags.apply(Rules.MAX_TAGS))
                                        .build()))
                        .getAccepted())
                .isTrue();
        assertRejected(
                h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("x")
                                .setTags(tags.apply(Rules.MAX_TAGS + 1))
                                .build())),
                "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("x")
                                .setTags(List.of("t".repeat(Rules.MAX_TAG_LENGTH + 1)))
                                .build())),
                "INVALID_ARGUMENT");
        assertRejected(
                h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("x")
                                .setUserId("u".repeat(Rules.MAX_SHORT_TEXT + 1))
                                .build())),
                "INVALID_ARGUMENT");
        String id = h.chain().get(0).getPayload() instanceof io.memorychain.avro.MemoryCreated c
                ? c.getMemory().getId()
                : null;
        assertRejected(
                h.submit(Requests.request(
                        SPACE, AGENT, new io.memorychain.avro.DeleteMemory(id, "r".repeat(Rules.MAX_REASON + 1)))),
                "INVALID_ARGUMENT");
        assertThat(h.chain()).hasSize(1);
    }

    @Test
    void rejectsAnUpdateThatChangesNothing() {
        String id = create("same");
        assertRejected(h.submit(Requests.updateContent(SPACE, AGENT, id, "same")), "INVALID_ARGUMENT");
    }

    @Test
    void rejectsDirectWritesBySubagents() {
        assertRejected(
                h.submit(Requests.create(SPACE, Requests.actor(ActorType.SUBAGENT, "researcher"), "x")), "FORBIDDEN");
    }

    @Test
    void protectingRequiresAnAdminOutsideRefinementAndUnprotectingRequiresAnAdmin() {
        String id = create("Never share the user's address");
        assertRejected(h.submit(Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, true)), "NOT_IN_REFINEMENT");
        assertThat(h.submit(Requests.flag(SPACE, ADMIN, id, MemoryFlag.CONSTITUTIONAL, true))
                        .getAccepted())
                .isTrue();
        assertRejected(h.submit(Requests.flag(SPACE, AGENT, id, MemoryFlag.CONSTITUTIONAL, false)), "FORBIDDEN");
        assertRejected(h.submit(Requests.flag(SPACE, ADMIN, id, MemoryFlag.CONSTITUTIONAL, true)), "INVALID_STATE");
    }

    @Test
    void rejectsDeletingOrConsolidatingAConstitutionalMemory() {
        String law = create("Always confirm before spending money");
        String other = create("Likes espresso");
        h.submit(Requests.flag(SPACE, ADMIN, law, MemoryFlag.CONSTITUTIONAL, true));
        assertRejected(h.submit(Requests.delete(SPACE, AGENT, law)), "CONSTITUTIONAL");
        assertRejected(h.submit(Requests.delete(SPACE, ADMIN, law)), "CONSTITUTIONAL");
        assertRejected(
                h.submit(Requests.consolidate(SPACE, AGENT, List.of(other, law), "merged", null)), "CONSTITUTIONAL");
        assertThat(h.chain()).hasSize(3);
    }

    @Test
    void consolidationIsAllOrNothing() {
        String a = create("a");
        assertRejected(
                h.submit(Requests.consolidate(SPACE, AGENT, List.of(a, "m0000zzz0000"), "merged", null)), "NOT_FOUND");
        assertRejected(h.submit(Requests.consolidate(SPACE, AGENT, List.of(a, a), "merged", null)), "INVALID_ARGUMENT");
        assertRejected(h.submit(Requests.consolidate(SPACE, AGENT, List.of(), "merged", null)), "INVALID_ARGUMENT");
        assertThat(h.chain()).hasSize(1);
    }

    @Test
    void consolidationSupersedesInputsAndKeepsTheEarliestCreatedAt() {
        Instant first = h.now;
        String a = create("User prefers dark mode");
        h.advance(Duration.ofDays(3));
        String b = create("User uses VS Code");
        h.advance(Duration.ofDays(3));
        MemoryOutcome o = h.submit(Requests.consolidate(
                SPACE, AGENT, List.of(b, a), "User prefers dark mode in VS Code", "unified profile"));
        assertThat(o.getAccepted()).isTrue();
        MemoriesConsolidated payload = (MemoriesConsolidated) h.chain().get(2).getPayload();
        assertThat(payload.getSupersededIds()).containsExactly(b, a);
        assertThat(payload.getCreated().getCreatedAt()).isEqualTo(first);
        assertThat(payload.getCreated().getSupersedes()).containsExactly(b, a);
        assertRejected(h.submit(Requests.updateContent(SPACE, AGENT, a, "changed")), "INVALID_STATE");
        assertRejected(
                h.submit(Requests.consolidate(SPACE, AGENT, List.of(a, o.getMemoryId()), "x", null)), "INVALID_STATE");
    }

    @Test
    void deleteAndRestoreFollowTheLifecycle() {
        String id = create("temp");
        assertRejected(h.submit(Requests.restore(SPACE, AGENT, id)), "INVALID_STATE");
        assertThat(h.submit(Requests.delete(SPACE, AGENT, id)).getVersion()).isEqualTo(2);
        assertRejected(h.submit(Requests.delete(SPACE, AGENT, id)), "INVALID_STATE");
        assertRejected(h.submit(Requests.updateContent(SPACE, AGENT, id, "x")), "INVALID_STATE");
        assertThat(h.submit(Requests.restore(SPACE, AGENT, id)).getVersion()).isEqualTo(3);
    }

    @Test
    void blockUpdatesIncrementTheVersionAndSupersedeThePrevious() {
        MemoryOutcome v1 = h.submit(Requests.block(SPACE, AGENT, "persona", "I am a careful planner"));
        MemoryOutcome v2 = h.submit(Requests.block(SPACE, AGENT, "persona", "I am a careful, concise planner"));
        assertThat(v1.getVersion()).isEqualTo(1);
        assertThat(v2.getVersion()).isEqualTo(2);
        // persona is a critical label: an agent's edit is followed by its alert (docs/architecture.md §21)
        assertThat(h.chain().get(1).getPayload()).isInstanceOf(io.memorychain.avro.CriticalChangeAlerted.class);
        BlockUpdated second = (BlockUpdated) h.chain().get(2).getPayload();
        assertThat(second.getPreviousId()).isEqualTo(v1.getMemoryId());
        assertThat(second.getMemory().getSupersedes()).containsExactly(v1.getMemoryId());
        assertThat(h.views.memory(SPACE, v1.getMemoryId()).orElseThrow().getState())
                .isEqualTo(MemoryState.SUPERSEDED);
        assertRejected(
                h.submit(Requests.block(SPACE, AGENT, "persona", "v3").setExpectedVersion(1)), "VERSION_CONFLICT");
        assertRejected(h.submit(Requests.block(SPACE, AGENT, "shopping_list", "eggs")), "UNKNOWN_BLOCK_LABEL");
        assertRejected(h.submit(Requests.updateContent(SPACE, AGENT, v2.getMemoryId(), "x")), "INVALID_ARGUMENT");
    }

    @Test
    void updateCarriesBeforeAndAfter() {
        String id = create("old text");
        h.submit(Requests.request(
                SPACE,
                AGENT,
                UpdateMemory.newBuilder()
                        .setId(id)
                        .setContent("new text")
                        .setImportance(5)
                        .build()));
        var updated = (io.memorychain.avro.MemoryUpdated) h.chain().get(1).getPayload();
        assertThat(updated.getBefore().getContent()).isEqualTo("old text");
        assertThat(updated.getAfter().getContent()).isEqualTo("new text");
        assertThat(updated.getAfter().getImportance()).isEqualTo(5);
        assertThat(updated.getAfter().getVersion()).isEqualTo(2);
        assertThat(updated.getAfter().getContentHash())
                .isNotEqualTo(updated.getBefore().getContentHash());
    }

    @Test
    void undecodableRecordsGoToTheDeadLetterTopicWithCoordinatesAndTheFlowContinues() {
        h.submitRaw(SPACE.getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3});
        h.submitRaw(null, new byte[] {0, 0, 0, 0, 1});
        var letters = h.sequencerDeadLetters();
        assertThat(letters).hasSize(2);
        assertThat(ChainHarness.header(letters.get(0).headers(), DeadLetterHeaders.TOPIC))
                .isEqualTo(h.topics.requests());
        assertThat(ChainHarness.header(letters.get(0).headers(), DeadLetterHeaders.OFFSET))
                .isEqualTo("0");
        assertThat(ChainHarness.header(letters.get(1).headers(), DeadLetterHeaders.OFFSET))
                .isEqualTo("1");
        assertThat(letters.get(0).value()).containsExactly(1, 2, 3);
        assertThat(h.pendingOutcomes()).isEmpty();
        create("still working");
        assertThat(h.chain()).extracting(MemoryEvent::getSeq).containsExactly(1L);
    }

    @Test
    void aRequestWhoseKeyIsNotItsSpaceIsSetAside() {
        var request = Requests.create(SPACE, AGENT, "x").build();
        h.submitRaw(
                "another".getBytes(StandardCharsets.UTF_8),
                io.memorychain.events.serde.AvroWireSerde.forValues(h.registry, io.memorychain.avro.MemoryRequest.class)
                        .serialize(h.topics.requests(), request));
        assertThat(h.sequencerDeadLetters()).hasSize(1);
        assertThat(h.chain()).isEmpty();
    }

    @Test
    void eventTimeNeverGoesBackwardsWithinASpace() {
        create("one");
        h.advance(Duration.ofMinutes(-10));
        create("two");
        assertThat(h.chain().get(1).getOccurredAt())
                .isAfterOrEqualTo(h.chain().get(0).getOccurredAt());
    }
}
