package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionProposed;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.Purges;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.content.SealedTexts;
import io.memorychain.events.content.SubjectLinks;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ViewSnapshot;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.support.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The erasure's reach beyond memory snapshots (docs/architecture.md §12, erasure cascade), on TopologyTestDriver:
 * proposal texts, reasons, refinement summaries and reflections are sealed under their subject's key, an erasure
 * destroys the keys of the subjects linked to the memory, and the views show the marker instead of their texts.
 */
class ErasureCascadeTest {

    private static final String SPACE = "acme-planner";
    private static final Actor AGENT = ChainHarness.AGENT;
    private static final Actor ADMIN = ChainHarness.ADMIN;
    private static final Actor USER = Requests.actor(ActorType.USER, "dana");
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor REFLECT = Requests.actor(ActorType.WORKER, "reflect");
    private static final String SECRET = "zebra-orchid-4417";

    private final ChainHarness h = new ChainHarness(WriteSettings.defaults(), null, MasterKey.generate());

    @AfterEach
    void close() {
        h.close();
    }

    private static MemoryOutcome accepted(MemoryOutcome o) {
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    private String create(String content) {
        return accepted(h.submit(Requests.create(SPACE, AGENT, content))).getMemoryId();
    }

    private boolean chainBytesContain(String text) {
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
        return h.chain().stream()
                .anyMatch(e ->
                        new String(serde.serialize(h.topics.events(), e), StandardCharsets.ISO_8859_1).contains(text));
    }

    /** The chain as a reader with the key topic reads it. */
    private List<MemoryEvent> decrypted() {
        ChainContent reader = ChainContent.decrypting((space, id) -> {
            DataKeyRecord r = h.dataKeys.get(DataKeyRing.recordKey(space, id));
            return r == null ? null : DataKeyRing.toKey(r, h.contentKey);
        });
        return h.chain().stream()
                .map(e -> reader.decrypt(MemoryEvent.newBuilder(e).build()))
                .toList();
    }

    private MemoryErased lastErasure() {
        return (MemoryErased) h.chain().get(h.chain().size() - 1).getPayload();
    }

    private void assertChainVerifies() {
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        assertThat(verifier.result().ok()).isTrue();
    }

    /** A projection fed the chain after the erasure (the keys as the key topic holds them) has the same views. */
    private void assertAReplayGivesTheSameViews(String proposal, String reflection, String session) {
        try (ChainHarness fresh = new ChainHarness(WriteSettings.defaults(), null, h.contentKey)) {
            fresh.dataKeys.putAll(h.dataKeys);
            for (MemoryEvent e : h.chain()) {
                fresh.replayIntoProjection(e);
            }
            assertThat(ViewSnapshot.of(fresh.views, SPACE)).isEqualTo(ViewSnapshot.of(h.views, SPACE));
            if (proposal != null) {
                assertThat(fresh.views.proposal(SPACE, proposal)).isEqualTo(h.views.proposal(SPACE, proposal));
            }
            if (reflection != null) {
                assertThat(fresh.views.reflection(SPACE, reflection)).isEqualTo(h.views.reflection(SPACE, reflection));
            }
            if (session != null) {
                assertThat(fresh.views.refinement(SPACE, session)).isEqualTo(h.views.refinement(SPACE, session));
            }
        }
    }

    @Test
    void aCommittedProposalsTextsAndTheMemorysReasonsAreSealedAndErasedWithTheMemory() {
        String pid = accepted(h.submit(Requests.propose(
                        SPACE,
                        RESEARCHER,
                        ProposedMemory.newBuilder()
                                .setContent("The user's code word is " + SECRET)
                                .setSummary("code word " + SECRET)
                                .setTags(List.of("tag-" + SECRET))
                                .setTrigger("user said " + SECRET)
                                .build())))
                .getMemoryId();
        String id = accepted(h.submit(
                        Requests.resolve(SPACE, AGENT, pid, ProposalDecision.COMMIT, "worth keeping: " + SECRET)))
                .getMemoryId();
        accepted(h.submit(Requests.request(SPACE, AGENT, new DeleteMemory(id, "stale, it said " + SECRET))));

        assertThat(chainBytesContain(SECRET))
                .as("no sealed text is plain on the chain")
                .isFalse();
        assertThat(h.keyRecords).extracting(DataKeyRecord::getMemoryId).containsExactly(pid, id);
        Proposal before = h.views.proposal(SPACE, pid).orElseThrow();
        assertThat(before.getProposal().getContent()).isEqualTo("The user's code word is " + SECRET);
        assertThat(before.getReason()).isEqualTo("worth keeping: " + SECRET);
        assertThat(h.views.audit(SPACE, 0, 100))
                .extracting(AuditEntry::getDescription)
                .anyMatch(d -> d.contains(SECRET));

        accepted(h.submit(Requests.erase(SPACE, USER, id, "forget the code word")));

        MemoryErased erased = lastErasure();
        assertThat(erased.getDestroyedSubjects()).containsExactly(pid);
        long seq = h.chain().get(h.chain().size() - 1).getSeq();
        assertThat(h.dataKeys.get(DataKeyRing.recordKey(SPACE, pid))).satisfies(k -> {
            assertThat(k.getWrappedKey()).isNull();
            assertThat(k.getDestroyedSeq()).isEqualTo(seq);
        });
        List<MemoryEvent> read = decrypted();
        assertThat(read.stream()
                        .map(e -> e.getPayload())
                        .filter(ProposalSubmitted.class::isInstance)
                        .map(p -> ((ProposalSubmitted) p).getProposal()))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.getContent()).isEqualTo(ChainContent.ERASED);
                    assertThat(p.getSummary()).isEqualTo(ChainContent.ERASED);
                    assertThat(p.getTrigger()).isEqualTo(ChainContent.ERASED);
                });
        assertThat(read)
                .map(MemoryEvent::getPayload)
                .filteredOn(ProposalResolved.class::isInstance)
                .singleElement()
                .extracting(p -> ((ProposalResolved) p).getReason())
                .isEqualTo(ChainContent.ERASED);
        assertThat(read)
                .map(MemoryEvent::getPayload)
                .filteredOn(MemoryDeleted.class::isInstance)
                .singleElement()
                .extracting(p -> ((MemoryDeleted) p).getReason())
                .isEqualTo(ChainContent.ERASED);
        assertThat(read)
                .map(MemoryEvent::getPayload)
                .filteredOn(MemoryErased.class::isInstance)
                .singleElement()
                .extracting(p -> ((MemoryErased) p).getReason())
                .isEqualTo("forget the code word");

        Proposal after = h.views.proposal(SPACE, pid).orElseThrow();
        assertThat(after.getProposal().getContent()).isEqualTo(ChainContent.ERASED);
        assertThat(after.getProposal().getSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(after.getProposal().getTags()).containsOnly(ChainContent.ERASED);
        assertThat(after.getReason()).isEqualTo(ChainContent.ERASED);
        assertThat(after.getMemoryId()).isEqualTo(id);
        KeyValueStore<String, Proposal> writeModel = h.sequencerStore(SequencerTopology.PROPOSALS_STORE);
        assertThat(writeModel.get(StoreKeys.of(SPACE, pid)).getProposal().getContent())
                .as("the sequencer's own copy")
                .isEqualTo(ChainContent.ERASED);
        assertThat(h.views.audit(SPACE, 0, 100))
                .extracting(AuditEntry::getDescription)
                .noneMatch(d -> d.contains(SECRET))
                .anyMatch(d -> d.startsWith("erased " + id));
        assertAReplayGivesTheSameViews(pid, null, null);
        assertChainVerifies();
    }

    @Test
    void aRefinementSessionThatChangedTheMemoryIsErasedWithIt() {
        String id = create("the locker code is " + SECRET);
        accepted(h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null)));
        String session = h.views.openRefinement(SPACE).orElseThrow().getSessionId();
        accepted(h.submit(Requests.updateContent(SPACE, AGENT, id, "the locker code is " + SECRET + " (short)")
                .setSessionId(session)));
        accepted(h.submit(Requests.completeRefinement(SPACE, AGENT, session, "shortened the " + SECRET + " note")));
        assertThat(((RefinementCompleted) h.chain().get(h.chain().size() - 1).getPayload()).getAgentSummary())
                .startsWith(ContentCipher.PREFIX);
        assertThat(h.views.refinement(SPACE, session).orElseThrow().getAgentSummary())
                .contains(SECRET);

        accepted(h.submit(Requests.erase(SPACE, ADMIN, id, "gdpr")));

        assertThat(lastErasure().getDestroyedSubjects()).containsExactly(SealedTexts.session(session));
        assertThat(decrypted())
                .map(MemoryEvent::getPayload)
                .filteredOn(RefinementCompleted.class::isInstance)
                .singleElement()
                .satisfies(p -> {
                    RefinementCompleted c = (RefinementCompleted) p;
                    assertThat(c.getAgentSummary()).isEqualTo(ChainContent.ERASED);
                    assertThat(c.getSummary()).isEqualTo(ChainContent.ERASED);
                });
        RefinementSession view = h.views.refinement(SPACE, session).orElseThrow();
        assertThat(view.getAgentSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(view.getSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(h.views.audit(SPACE, 0, 100))
                .filteredOn(a -> a.getEventType().equals("RefinementCompleted"))
                .singleElement()
                .satisfies(a -> assertThat(a.getDescription())
                        .isEqualTo("refinement session " + session + " completed " + ChainContent.ERASED));
        // not reached (docs/architecture.md §12): the session's JOURNAL memory is a memory of its own, under its own
        // key; it quotes the agent's summary until it is erased too
        assertAReplayGivesTheSameViews(null, null, session);
        assertChainVerifies();
    }

    @Test
    void aSubjectErasedBeforeItHadAKeyGetsADestroyedOneAndItsLaterTextsGoOnTheChainAsTheMarker() {
        String id = create("the safe code is " + SECRET);
        accepted(h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null)));
        String session = h.views.openRefinement(SPACE).orElseThrow().getSessionId();
        accepted(h.submit(Requests.updateContent(SPACE, AGENT, id, "the safe code is " + SECRET + "!")
                .setSessionId(session)));
        String subject = SealedTexts.session(session);
        assertThat(h.dataKeys)
                .as("no session text yet, so no key")
                .doesNotContainKey(DataKeyRing.recordKey(SPACE, subject));

        accepted(h.submit(Requests.erase(SPACE, ADMIN, id, "gdpr")));

        long erasedAt = h.chain().get(h.chain().size() - 1).getSeq();
        assertThat(lastErasure().getDestroyedSubjects()).containsExactly(subject);
        assertThat(h.dataKeys.get(DataKeyRing.recordKey(SPACE, subject))).satisfies(k -> {
            assertThat(k.getWrappedKey()).isNull();
            assertThat(k.getCreatedSeq()).isEqualTo(erasedAt);
            assertThat(k.getDestroyedSeq()).isEqualTo(erasedAt);
        });
        accepted(h.submit(Requests.completeRefinement(SPACE, AGENT, session, "removed the " + SECRET + " note")));
        RefinementCompleted completed =
                (RefinementCompleted) h.chain().get(h.chain().size() - 1).getPayload();
        assertThat(completed.getAgentSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(completed.getSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(h.views.refinement(SPACE, session).orElseThrow().getAgentSummary())
                .isEqualTo(ChainContent.ERASED);
        assertChainVerifies();
    }

    @Test
    void aReflectionNamingTheMemoryIsErasedOnceEvenWhenTwoOfItsMemoriesAreErased() {
        String a = create("Ana's badge is " + SECRET);
        String b = create("Ana works late");
        ReflectionDocument doc = ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.THRESHOLD)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(2)
                .setEpisodeIds(List.of(b))
                .setSummary("# Reflection: the badge " + SECRET)
                .setGuidance("remember " + SECRET)
                .setChanges(List.of(ReflectionChange.newBuilder()
                        .setChangeId("c1")
                        .setType(ReflectionChangeType.UPDATE_MEMORY)
                        .setMemoryId(a)
                        .setContent("badge " + SECRET)
                        .setReason("seen twice: " + SECRET)
                        .build()))
                .build();
        String rid = accepted(h.submit(Requests.proposeReflection(SPACE, REFLECT, doc)))
                .getMemoryId();
        assertThat(((ReflectionProposed) h.chain().get(h.chain().size() - 1).getPayload())
                        .getReflection()
                        .getSummary())
                .startsWith(ContentCipher.PREFIX);
        assertThat(chainBytesContain(SECRET)).isFalse();

        accepted(h.submit(Requests.erase(SPACE, USER, a, "forget the badge")));

        assertThat(lastErasure().getDestroyedSubjects()).containsExactly(rid);
        Reflection view = h.views.reflection(SPACE, rid).orElseThrow();
        assertThat(view.getDocument().getSummary()).isEqualTo(ChainContent.ERASED);
        assertThat(view.getDocument().getGuidance()).isEqualTo(ChainContent.ERASED);
        assertThat(view.getDocument().getChanges().get(0).getContent()).isEqualTo(ChainContent.ERASED);
        assertThat(view.getDocument().getChanges().get(0).getMemoryId()).isEqualTo(a);
        KeyValueStore<String, Reflection> writeModel = h.sequencerStore(SequencerTopology.REFLECTIONS_STORE);
        assertThat(writeModel.get(StoreKeys.of(SPACE, rid)).getDocument().getGuidance())
                .as("the sequencer's own copy")
                .isEqualTo(ChainContent.ERASED);
        assertThat(decrypted())
                .map(MemoryEvent::getPayload)
                .filteredOn(ReflectionProposed.class::isInstance)
                .singleElement()
                .satisfies(
                        p -> assertThat(((ReflectionProposed) p).getReflection().getSummary())
                                .isEqualTo(ChainContent.ERASED));

        long destroyedBefore = h.keyRecords.stream()
                .filter(k -> k.getMemoryId().equals(rid) && k.getWrappedKey() == null)
                .count();
        accepted(h.submit(Requests.erase(SPACE, USER, b, "forget Ana")));

        assertThat(lastErasure().getDestroyedSubjects())
                .as("a subject is destroyed once")
                .isEmpty();
        assertThat(h.keyRecords.stream()
                        .filter(k -> k.getMemoryId().equals(rid) && k.getWrappedKey() == null)
                        .count())
                .isEqualTo(destroyedBefore)
                .isEqualTo(1);
        assertAReplayGivesTheSameViews(null, rid, null);
        assertChainVerifies();
    }

    @Test
    void theMemoriesConsolidatedFromTheErasedOneGoWithItAndTheirOtherInputsAreActiveAgain() {
        String a = create("Ana's door code is " + SECRET);
        String b = create("Ana lives on Rua Augusta");
        String c = accepted(h.submit(Requests.consolidate(
                        SPACE,
                        AGENT,
                        List.of(a, b),
                        "Ana lives on Rua Augusta, door code " + SECRET,
                        "one person, " + SECRET)))
                .getMemoryId();
        String d = create("Ana cycles to work");
        String e = accepted(h.submit(Requests.consolidate(
                        SPACE,
                        AGENT,
                        List.of(c, d),
                        "Ana lives on Rua Augusta (door " + SECRET + ") and cycles to work",
                        "merged")))
                .getMemoryId();
        assertThat(h.views.memory(SPACE, b).orElseThrow().getSupersededBy()).isEqualTo(c);
        assertThat(h.views.memory(SPACE, d).orElseThrow().getSupersededBy()).isEqualTo(e);

        accepted(h.submit(Requests.erase(SPACE, USER, a, "forget the code")));

        assertThat(lastErasure().getDestroyedSubjects())
                .as("c quotes a, e quotes c")
                .containsExactly(c, e);
        for (String id : List.of(a, c, e)) {
            assertThat(h.views.memory(SPACE, id).orElseThrow().getContent())
                    .as(id)
                    .isEqualTo(Purges.ERASED);
            assertThat(h.dataKeys.get(DataKeyRing.recordKey(SPACE, id)).getWrappedKey())
                    .as("key of " + id)
                    .isNull();
            assertThat(h.views.history(SPACE, id))
                    .allSatisfy(entry -> assertThat(entry.toString()).doesNotContain(SECRET));
        }
        for (String id : List.of(b, d)) {
            Memory input = h.views.memory(SPACE, id).orElseThrow();
            assertThat(input.getState()).as(id + " takes its place again").isEqualTo(MemoryState.ACTIVE);
            assertThat(input.getSupersededBy()).isNull();
        }
        assertThat(decrypted())
                .map(MemoryEvent::getPayload)
                .filteredOn(MemoriesConsolidated.class::isInstance)
                .hasSize(2)
                .allSatisfy(p -> {
                    MemoriesConsolidated merged = (MemoriesConsolidated) p;
                    assertThat(merged.getCreated().getContent()).isEqualTo(ChainContent.ERASED);
                    assertThat(merged.getReason()).isEqualTo(ChainContent.ERASED);
                });
        assertThat(h.views.audit(SPACE, 0, 100))
                .allSatisfy(line -> assertThat(line.getDescription()).doesNotContain(SECRET));
        long erasedAt = h.chain().get(h.chain().size() - 1).getSeq();
        assertThat(h.views.threadChanges(SPACE, "", 0, 100))
                .as("the delta header: one change per memory")
                .filteredOn(change -> change.getSeq() == erasedAt)
                .extracting(ThreadChange::getMemoryId, ThreadChange::getChange, ThreadChange::getText)
                .containsExactly(
                        tuple(a, "erased", ChainContent.ERASED),
                        tuple(c, "erased", ChainContent.ERASED),
                        tuple(e, "erased", ChainContent.ERASED),
                        tuple(b, "restored", "Ana lives on Rua Augusta"),
                        tuple(d, "restored", "Ana cycles to work"));
        assertThat(h.views.threadChanges(SPACE, "", 0, 100))
                .allSatisfy(change -> assertThat(change.getText()).doesNotContain(SECRET));
        assertThat(h.views.search(SearchRequest.builder(SPACE)
                        .text(SECRET + " Augusta")
                        .mode(SearchMode.BM25)
                        .internalStates(EnumSet.allOf(MemoryState.class))
                        .topK(10)
                        .build()))
                .extracting(Hit::id)
                .containsExactly(b);
        assertAReplayGivesTheSameViews(null, null, null);

        assertThat(h.submit(Requests.erase(SPACE, USER, c, "again")).getCode()).isEqualTo("INVALID_STATE");
        accepted(h.submit(Requests.erase(SPACE, USER, b, "forget the street")));
        assertThat(lastErasure().getDestroyedSubjects())
                .as("c and e are destroyed once")
                .isEmpty();
        assertChainVerifies();
    }

    @Test
    void theLinksAReplayOfTheChainComputesEqualTheSequencersLiveStore() {
        String pid = accepted(h.submit(Requests.propose(SPACE, RESEARCHER, "proposal " + SECRET)))
                .getMemoryId();
        String committed = accepted(h.submit(Requests.resolve(SPACE, AGENT, pid, ProposalDecision.COMMIT, null)))
                .getMemoryId();
        String other = create("other");
        accepted(h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null)));
        String session = h.views.openRefinement(SPACE).orElseThrow().getSessionId();
        accepted(h.submit(
                Requests.updateContent(SPACE, AGENT, other, "other, shorter").setSessionId(session)));
        accepted(h.submit(Requests.completeRefinement(SPACE, AGENT, session, "done")));
        accepted(h.submit(Requests.erase(SPACE, ADMIN, committed, "gdpr")));

        Map<String, Set<String>> live = new LinkedHashMap<>();
        KeyValueStore<String, String> store = h.sequencerStore(SequencerTopology.SUBJECTS_STORE);
        try (KeyValueIterator<String, String> it = store.all()) {
            it.forEachRemaining(kv -> {
                String rest = kv.key.substring((SPACE + StoreKeys.SEP).length());
                if (rest.startsWith(SubjectStore.ERASED + StoreKeys.SEP)) {
                    live.computeIfAbsent("", k -> new LinkedHashSet<>())
                            .add(rest.substring(SubjectStore.ERASED.length() + 1));
                } else {
                    live.computeIfAbsent(rest, k -> new LinkedHashSet<>())
                            .addAll(List.of(kv.value.split(String.valueOf(StoreKeys.SEP))));
                }
            });
        }

        Map<String, Set<String>> replayed = SubjectLinks.replay(h.chain());
        assertThat(live).isEqualTo(replayed);
        assertThat(replayed.get(committed)).containsExactly(pid);
        assertThat(replayed.get(other)).contains(SealedTexts.session(session));
        assertThat(replayed.get("")).containsExactly(pid);
    }
}
