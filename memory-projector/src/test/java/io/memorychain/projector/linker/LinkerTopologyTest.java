package io.memorychain.projector.linker;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.Relation;
import io.memorychain.events.DeadLetterHeaders;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The linker on TopologyTestDriver with the real sequencer, projection and embedder (one harness for the class; each
 * test has its own space).
 */
class LinkerTopologyTest {

    private static final String ALLERGY = "Alice is allergic to peanuts.";
    private static final String ALLERGY_PARAPHRASE = "Alice has a peanut allergy.";
    private static ChainHarness h;
    private static LinkerRig rig;

    @BeforeAll
    static void start() {
        h = new ChainHarness(SharedEmbedder.get());
        rig = new LinkerRig(h);
    }

    @AfterAll
    static void stop() {
        rig.close();
        h.close();
    }

    private static String create(String space, String content) {
        return h.submit(Requests.create(space, AGENT, content)).getMemoryId();
    }

    private static String create(String space, MemoryKind kind, String content) {
        return h.submit(Requests.create(
                        space,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(kind)
                                .setContent(content)
                                .build()))
                .getMemoryId();
    }

    private static LinkMemories op(MemoryRequest r) {
        return (LinkMemories) r.getOp();
    }

    @Test
    void aCloseNewSemanticMemoryIsLinkedToItsNeighbourAndTheSequencerAcceptsTheEdge() {
        String space = "close";
        String old = create(space, ALLERGY);
        assertThat(rig.run()).as("nothing to link to yet").isEmpty();
        String fresh = create(space, ALLERGY_PARAPHRASE);

        List<MemoryRequest> proposed = rig.run();

        assertThat(proposed).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("link:close:" + fresh + ":" + old);
            assertThat(r.getActor().getType()).isEqualTo(ActorType.WORKER);
            assertThat(r.getActor().getId()).isEqualTo("linker");
            assertThat(op(r).getFromId()).isEqualTo(fresh);
            assertThat(op(r).getToId()).isEqualTo(old);
            assertThat(op(r).getRelationType()).isEqualTo("related_to");
            assertThat(op(r).getStrength()).isBetween(0.85, 1.0);
            assertThat(op(r).getStrength() * 1000).isEqualTo(Math.rint(op(r).getStrength() * 1000));
        });
        assertThat(rig.outcomes.get(rig.outcomes.size() - 1).getAccepted()).isTrue();
        assertThat(h.views.relations(space, old))
                .extracting(Relation::getFromId, Relation::getToId, Relation::getRelationType)
                .containsExactly(tuple(fresh, old, "related_to"));
        assertThat(h.views.relations(space, fresh))
                .singleElement()
                .satisfies(rel -> assertThat(rel.getStrength())
                        .isEqualTo(op(proposed.get(0)).getStrength()));
    }

    @Test
    void anUnrelatedMemoryIsNotLinked() {
        String space = "unrelated";
        String berlin = create(space, "The user lives in Berlin.");
        String atlas = create(space, "Project Atlas uses PostgreSQL 16.");
        assertThat(rig.run()).isEmpty();
        assertThat(h.views.relations(space, berlin)).isEmpty();
        assertThat(h.views.relations(space, atlas)).isEmpty();
    }

    @Test
    void anEditOfALinkedMemoryDoesNotLinkThePairAgain() {
        String space = "edit";
        String a = create(space, ALLERGY);
        String b = create(space, ALLERGY_PARAPHRASE);
        assertThat(rig.run()).hasSize(1);
        h.submit(Requests.updateContent(space, AGENT, b, "Alice has a severe peanut allergy."));
        assertThat(rig.run())
                .as("the new content is as close, but the pair is linked already")
                .isEmpty();
        assertThat(h.views.relations(space, a)).hasSize(1);
    }

    @Test
    void reprocessingProposesNoDuplicateEdge() {
        try (ChainHarness own = new ChainHarness(SharedEmbedder.get());
                LinkerRig first = new LinkerRig(own)) {
            String a = own.submit(Requests.create("replay", AGENT, ALLERGY)).getMemoryId();
            own.submit(Requests.create("replay", AGENT, ALLERGY_PARAPHRASE));
            assertThat(first.run()).hasSize(1);

            own.chain().forEach(first::pipe);
            own.embeddings().forEach(first::pipe);
            assertThat(first.run()).as("the same events and embeddings again").isEmpty();

            try (LinkerRig fresh = new LinkerRig(own)) {
                // a linker that lost its state before the link event reached it: creations and vectors only
                fresh.pipe(own.chain().get(0));
                fresh.pipe(own.chain().get(1));
                own.embeddings().forEach(fresh::pipe);
                fresh.skipAll();
                List<MemoryRequest> again = fresh.run();
                assertThat(again)
                        .as("the same request, by its deterministic id")
                        .hasSize(1);
                assertThat(again.get(0).getRequestId())
                        .isEqualTo(first.proposed.get(0).getRequestId());
                assertThat(fresh.outcomes).singleElement().satisfies(o -> {
                    assertThat(o.getAccepted())
                            .as("the original outcome, answered again")
                            .isTrue();
                    assertThat(o.getSeq()).isEqualTo(first.outcomes.get(0).getSeq());
                });
            }
            try (LinkerRig replay = new LinkerRig(own)) {
                assertThat(replay.run())
                        .as("a linker replaying the whole chain sees the link event first")
                        .isEmpty();
            }
            assertThat(own.views.relations("replay", a)).hasSize(1);
            assertThat(own.chain()).hasSize(3);
        }
    }

    @Test
    void nonSemanticMemoriesAreNeitherLinkedNorLinkedTo() {
        String space = "kinds";
        String semantic = create(space, ALLERGY);
        String episodic = create(space, MemoryKind.EPISODIC, ALLERGY_PARAPHRASE);
        String procedural = create(space, MemoryKind.PROCEDURAL, "Alice is allergic to peanuts!");
        h.submit(Requests.block(space, AGENT, "knowledge", ALLERGY));
        assertThat(rig.run()).isEmpty();
        assertThat(h.views.relations(space, semantic)).isEmpty();
        assertThat(h.views.relations(space, episodic)).isEmpty();
        assertThat(h.views.relations(space, procedural)).isEmpty();
    }

    @Test
    void aDeletedNeighbourIsNotLinkedTo() {
        String space = "deleted-neighbour";
        String gone = create(space, ALLERGY);
        assertThat(rig.run()).isEmpty();
        h.submit(Requests.delete(space, AGENT, gone));
        String fresh = create(space, ALLERGY_PARAPHRASE);
        assertThat(rig.run()).isEmpty();
        assertThat(h.views.relations(space, fresh)).isEmpty();
    }

    @Test
    void aMemoryDeletedBeforeItsEmbeddingArrivesIsNotLinkedAndIsLinkedOnceRestored() {
        String space = "deleted-early";
        String old = create(space, ALLERGY);
        assertThat(rig.run()).isEmpty();
        String fresh = create(space, ALLERGY_PARAPHRASE);
        h.submit(Requests.delete(space, AGENT, fresh));
        assertThat(rig.run())
                .as("events are fed before embeddings: deleted when its vector comes")
                .isEmpty();

        h.submit(Requests.restore(space, AGENT, fresh));
        assertThat(rig.run())
                .singleElement()
                .satisfies(r -> assertThat(op(r).getToId()).isEqualTo(old));
        assertThat(h.views.relations(space, old)).hasSize(1);
    }

    @Test
    void anEmbeddingThatArrivesBeforeItsEventIsUsedWhenTheEventComes() {
        String space = "early-vector";
        String old = create(space, ALLERGY);
        assertThat(rig.run()).isEmpty();
        int events = h.chain().size();
        int embeddings = h.embeddings().size();
        String fresh = create(space, ALLERGY_PARAPHRASE);
        rig.pipe(h.embeddings().get(embeddings));
        rig.pipe(h.chain().get(events));
        rig.skipAll();
        assertThat(rig.run())
                .singleElement()
                .satisfies(r -> assertThat(op(r).getFromId()).isEqualTo(fresh));
        assertThat(h.views.relations(space, old))
                .extracting(Relation::getFromId)
                .containsExactly(fresh);
    }

    @Test
    void theBestKNeighboursAtOrAboveLinkMinAreLinkedBestFirst() {
        try (ChainHarness own = new ChainHarness(SharedEmbedder.get());
                LinkerRig topOne = new LinkerRig(own, new LinkerSettings(1, 0.5, own.embedder.modelId()))) {
            String space = "top-k";
            own.submit(Requests.create(space, AGENT, "Alice cannot eat nuts."));
            String best = own.submit(Requests.create(space, AGENT, ALLERGY)).getMemoryId();
            own.submit(Requests.create(space, AGENT, "The user lives in Berlin."));
            topOne.run();
            String fresh = own.submit(Requests.create(space, AGENT, ALLERGY_PARAPHRASE))
                    .getMemoryId();
            assertThat(topOne.run()).singleElement().satisfies(r -> {
                assertThat(op(r).getFromId()).isEqualTo(fresh);
                assertThat(op(r).getToId()).isEqualTo(best);
            });
        }
    }

    @Test
    void aNewMemoryIsComparedWithTheMostRecentMaxScanMemoriesOfItsSpaceOnly() {
        try (ChainHarness own = new ChainHarness(SharedEmbedder.get());
                LinkerRig lastTwo = new LinkerRig(own, new LinkerSettings(1, 0.5, own.embedder.modelId(), 2))) {
            String within = "scan-within";
            own.submit(Requests.create(within, AGENT, "Alice cannot eat nuts."));
            String recent = own.submit(Requests.create(within, AGENT, ALLERGY)).getMemoryId();
            own.submit(Requests.create(within, AGENT, "The user lives in Berlin."));
            String beyond = "scan-beyond";
            String third = own.submit(Requests.create(beyond, AGENT, ALLERGY)).getMemoryId();
            own.submit(Requests.create(beyond, AGENT, "Alice cannot eat nuts."));
            own.submit(Requests.create(beyond, AGENT, "The user lives in Berlin."));
            lastTwo.run();

            String linked = own.submit(Requests.create(within, AGENT, ALLERGY_PARAPHRASE))
                    .getMemoryId();
            assertThat(lastTwo.run()).singleElement().satisfies(r -> {
                assertThat(op(r).getFromId()).isEqualTo(linked);
                assertThat(op(r).getToId()).isEqualTo(recent);
            });
            String unlinked = own.submit(Requests.create(beyond, AGENT, ALLERGY_PARAPHRASE))
                    .getMemoryId();
            assertThat(lastTwo.run())
                    .as("its best match is the third most recent: not compared")
                    .allSatisfy(r -> assertThat(op(r).getFromId()).isEqualTo(unlinked))
                    .noneSatisfy(r -> assertThat(op(r).getToId()).isEqualTo(third));
        }
    }

    @Test
    void embeddingsOfAnotherModelAreIgnoredAndUndecodableRecordsGoToTheDeadLetterTopic() {
        String space = "other-model";
        String old = create(space, ALLERGY);
        rig.run();
        List<Float> vector = h.embeddings().get(h.embeddings().size() - 1).getVector();
        String fresh = create(space, ALLERGY_PARAPHRASE);
        rig.skipAll(); // hold back the real embedding of the new memory
        String hash = h.chain().get(h.chain().size() - 1).getPayload() instanceof io.memorychain.avro.MemoryCreated c
                ? c.getMemory().getContentHash()
                : null;
        rig.pipe(new MemoryEmbedding(space, fresh, 99L, hash, "another-model", vector));
        assertThat(rig.run()).isEmpty();

        rig.pipeRaw(h.topics.embeddings(), "not avro".getBytes(StandardCharsets.UTF_8));
        assertThat(rig.deadLetters())
                .singleElement()
                .satisfies(d -> assertThat(ChainHarness.header(d.headers(), DeadLetterHeaders.STAGE))
                        .isEqualTo("link"));
        assertThat(h.views.relations(space, old)).isEmpty();
    }
}
