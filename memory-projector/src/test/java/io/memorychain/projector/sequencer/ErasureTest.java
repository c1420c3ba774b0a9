package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.domain.Purges;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.ListQuery;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Crypto-shredding on the sequencer and the projection (docs/architecture.md §12, erasure), on TopologyTestDriver:
 * texts go on the chain encrypted under a per-memory data key, the views read them decrypted, and an erasure destroys
 * the key so that nothing serves them any more while the chain still verifies.
 */
class ErasureTest {

    private static final String SPACE = "acme-planner";
    private static final Actor AGENT = ChainHarness.AGENT;
    private static final Actor ADMIN = ChainHarness.ADMIN;
    private static final Actor USER = Requests.actor(ActorType.USER, "dana");
    private static final String MARKER = "zebra-orchid-4417";

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
        MemoryOutcome o = h.submit(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder()
                        .setContent(content)
                        .setSummary("about " + content)
                        .setTags(List.of("tag-" + content))
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private byte[] bytesOf(MemoryEvent event) {
        return AvroWireSerde.forValues(h.registry, MemoryEvent.class).serialize(h.topics.events(), event);
    }

    private static boolean contains(byte[] haystack, String needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
    }

    private void assertChainVerifies() {
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        assertThat(verifier.result().ok()).isTrue();
    }

    @Test
    void anErasedCoreMemoryLeavesTheActiveListAndTheCoreViewAndCannotBeRestored() {
        String core = accepted(h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("always answer in Portuguese " + MARKER)
                                .setTier(Tier.CORE)
                                .build())))
                .getMemoryId();
        String kept = create("the office moved to Lyon");
        assertThat(h.views.core(SPACE).text()).contains(MARKER);

        accepted(h.submit(Requests.erase(SPACE, USER, core, "the user asked to be forgotten")));

        Memory tombstone = h.views.memory(SPACE, core).orElseThrow();
        assertThat(tombstone.getContent()).isEqualTo(Purges.ERASED);
        assertThat(tombstone.getState()).as("a tombstone, not a live memory").isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(h.views
                        .list(SPACE, new ListQuery(null, null, MemoryState.ACTIVE, null, 100))
                        .items())
                .extracting(Memory::getId)
                .containsExactly(kept);
        assertThat(h.views.core(SPACE).memories()).isEmpty();
        assertThat(h.views.core(SPACE).text()).doesNotContain(Purges.ERASED).doesNotContain(MARKER);
        assertThat(h.submit(Requests.restore(SPACE, AGENT, core)).getCode()).isEqualTo("INVALID_STATE");
    }

    @Test
    void theChainCarriesOnlyCiphertextWhileTheViewsReadThePlainText() {
        String id = create(MARKER);

        MemoryEvent created = h.chain().get(0);
        Memory onChain = ((MemoryCreated) created.getPayload()).getMemory();
        assertThat(onChain.getContent()).startsWith(ContentCipher.PREFIX);
        assertThat(onChain.getSummary()).startsWith(ContentCipher.PREFIX);
        assertThat(onChain.getTags()).singleElement().asString().startsWith(ContentCipher.PREFIX);
        assertThat(contains(bytesOf(created), MARKER))
                .as("no byte of the text on the chain")
                .isFalse();
        assertThat(h.keyRecords).singleElement().satisfies(k -> {
            assertThat(k.getMemoryId()).isEqualTo(id);
            assertThat(k.getCreatedSeq()).isEqualTo(created.getSeq());
            assertThat(k.getWrappedKey()).isNotNull();
            assertThat(k.getDestroyedSeq()).isNull();
            assertThat(k.getMasterKeyId()).isEqualTo(h.contentKey.id());
        });

        Memory read = h.views.memory(SPACE, id).orElseThrow();
        assertThat(read.getContent()).isEqualTo(MARKER);
        assertThat(read.getSummary()).isEqualTo("about " + MARKER);
        assertThat(read.getTags()).containsExactly("tag-" + MARKER);
        assertChainVerifies();
    }

    @Test
    void laterEventsOfAMemoryReuseItsKeyAndEachMemoryHasItsOwn() {
        String a = create("alpha fact");
        String b = create("beta fact");
        assertThat(h.submit(Requests.updateContent(SPACE, AGENT, a, "alpha fact, revised"))
                        .getAccepted())
                .isTrue();

        assertThat(h.keyRecords).extracting(DataKeyRecord::getMemoryId).containsExactly(a, b);
        MemoryUpdated update = (MemoryUpdated) h.chain().get(2).getPayload();
        assertThat(update.getBefore().getContent()).startsWith(ContentCipher.PREFIX);
        assertThat(update.getAfter().getContent()).startsWith(ContentCipher.PREFIX);
        assertThat(h.views.memory(SPACE, a).orElseThrow().getContent()).isEqualTo("alpha fact, revised");
        assertThat(h.views.memory(SPACE, b).orElseThrow().getContent()).isEqualTo("beta fact");
        assertChainVerifies();
    }

    @Test
    void anErasureDestroysTheKeyAndNoViewServesTheTextAnyMoreWhileTheChainVerifies() {
        String erased = create(MARKER);
        String kept = create("the office moved to Lyon");
        assertThat(h.submit(Requests.updateContent(SPACE, AGENT, erased, MARKER + " v2"))
                        .getAccepted())
                .isTrue();

        MemoryOutcome o = h.submit(Requests.erase(SPACE, USER, erased, "the user asked to be forgotten"));

        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        MemoryEvent event = h.chain().get(h.chain().size() - 1);
        MemoryErased payload = (MemoryErased) event.getPayload();
        DataKeyRecord created = h.keyRecords.get(0);
        assertThat(payload.getMemoryId()).isEqualTo(erased);
        assertThat(payload.getDataKeyId()).isEqualTo(created.getKeyId());
        assertThat(payload.getKeyCreatedSeq()).isEqualTo(created.getCreatedSeq());
        assertThat(payload.getWasPurged()).isFalse();
        DataKeyRecord destroyed = h.keyRecords.get(h.keyRecords.size() - 1);
        assertThat(destroyed.getMemoryId()).isEqualTo(erased);
        assertThat(destroyed.getWrappedKey()).as("no key material").isNull();
        assertThat(destroyed.getDestroyedSeq()).isEqualTo(event.getSeq());
        assertThat(h.dataKeys.get(DataKeyRing.recordKey(SPACE, erased))).isEqualTo(destroyed);

        Memory tombstone = h.views.memory(SPACE, erased).orElseThrow();
        assertThat(tombstone.getContent()).isEqualTo(Purges.ERASED);
        assertThat(tombstone.getSummary()).isNull();
        assertThat(tombstone.getTags()).isEmpty();
        assertThat(tombstone.getPurgedAt()).isNotNull();
        assertThat(h.views.memory(SPACE, kept).orElseThrow().getContent()).isEqualTo("the office moved to Lyon");
        List<Hit> hits = h.views.search(SearchRequest.builder(SPACE)
                .text(MARKER + " Lyon")
                .mode(SearchMode.BM25)
                .internalStates(EnumSet.allOf(MemoryState.class))
                .topK(10)
                .build());
        assertThat(hits).extracting(Hit::id).doesNotContain(erased);
        assertThat(h.views.history(SPACE, erased)).isNotEmpty().allSatisfy(entry -> {
            for (Memory m : new Memory[] {entry.getBefore(), entry.getAfter()}) {
                if (m != null) {
                    assertThat(m.getContent()).doesNotContain(MARKER);
                }
            }
        });
        assertThat(h.views.audit(SPACE, 0, 1000))
                .extracting(AuditEntry::getDescription)
                .noneMatch(d -> d.contains(MARKER))
                .anyMatch(d -> d.startsWith("erased " + erased));

        ChainContent reader = ChainContent.decrypting((space, id) -> {
            DataKeyRecord r = h.dataKeys.get(DataKeyRing.recordKey(space, id));
            return r == null ? null : DataKeyRing.toKey(r, h.contentKey);
        });
        for (MemoryEvent e : h.chain()) {
            MemoryEvent copy = MemoryEvent.newBuilder(e).build();
            ChainContent.forEachMemory(reader.decrypt(copy).getPayload(), m -> {
                if (m.getId().equals(erased)) {
                    assertThat(m.getContent())
                            .as("every earlier event reads as erased")
                            .isEqualTo(Purges.ERASED);
                } else {
                    assertThat(m.getContent()).isEqualTo("the office moved to Lyon");
                }
            });
            assertThat(contains(bytesOf(e), MARKER)).isFalse();
        }
        assertChainVerifies();
    }

    @Test
    void onlyAdminsAndUsersEraseWithAReasonAndOnlyOnce() {
        String id = create(MARKER);

        assertThat(h.submit(Requests.erase(SPACE, AGENT, id, "x")).getCode()).isEqualTo("FORBIDDEN");
        assertThat(h.submit(Requests.erase(SPACE, Requests.actor(ActorType.WORKER, "lifecycle"), id, "x"))
                        .getCode())
                .isEqualTo("FORBIDDEN");
        assertThat(h.submit(Requests.erase(SPACE, Requests.actor(ActorType.SUBAGENT, "researcher"), id, "x"))
                        .getCode())
                .isEqualTo("FORBIDDEN");
        assertThat(h.submit(Requests.erase(SPACE, ADMIN, id, " ")).getCode()).isEqualTo("INVALID_ARGUMENT");
        assertThat(h.submit(Requests.erase(SPACE, ADMIN, "m0000zzz0000", "gone"))
                        .getCode())
                .isEqualTo("NOT_FOUND");
        assertThat(h.submit(Requests.erase(SPACE, ADMIN, id, "GDPR request 12")).getAccepted())
                .isTrue();
        assertThat(h.submit(Requests.erase(SPACE, USER, id, "again")).getCode()).isEqualTo("INVALID_STATE");
        assertThat(h.submit(Requests.updateContent(SPACE, AGENT, id, "back?")).getAccepted())
                .as("an erased memory never changes again")
                .isFalse();
        assertThat(h.submit(Requests.restore(SPACE, AGENT, id)).getAccepted()).isFalse();
    }

    @Test
    void aPurgedMemoryCanStillBeErasedSoItsEarlierEventsBecomeUnreadable() {
        String id = create(MARKER);
        assertThat(h.submit(Requests.delete(SPACE, AGENT, id)).getAccepted()).isTrue();
        assertThat(h.submit(Requests.request(SPACE, ADMIN, new io.memorychain.avro.PurgeMemory(id, "cleanup")))
                        .getAccepted())
                .isTrue();
        assertThat(h.views.memory(SPACE, id).orElseThrow().getContent()).isEqualTo(Purges.MARKER);

        MemoryOutcome o = h.submit(Requests.erase(SPACE, ADMIN, id, "data subject request"));

        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        MemoryErased payload =
                (MemoryErased) h.chain().get(h.chain().size() - 1).getPayload();
        assertThat(payload.getWasPurged()).isTrue();
        assertThat(payload.getDataKeyId()).isNotNull();
        assertThat(h.views.memory(SPACE, id).orElseThrow().getContent()).isEqualTo(Purges.ERASED);
        assertChainVerifies();
    }

    @Test
    void withoutAMasterKeyTextsStayPlainAndAnErasureRecordsThatThereWasNoKey() {
        try (ChainHarness plain = new ChainHarness()) {
            String id = plain.submit(Requests.create(SPACE, AGENT, MARKER)).getMemoryId();
            assertThat(((MemoryCreated) plain.chain().get(0).getPayload())
                            .getMemory()
                            .getContent())
                    .isEqualTo(MARKER);

            assertThat(plain.submit(Requests.erase(SPACE, ADMIN, id, "gdpr")).getAccepted())
                    .isTrue();

            MemoryErased payload = (MemoryErased) plain.chain().get(1).getPayload();
            assertThat(payload.getDataKeyId()).isNull();
            assertThat(plain.keyRecords).isEmpty();
            assertThat(plain.views.memory(SPACE, id).orElseThrow().getContent()).isEqualTo(Purges.ERASED);
        }
    }
}
