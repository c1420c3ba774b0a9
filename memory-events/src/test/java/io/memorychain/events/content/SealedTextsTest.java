package io.memorychain.events.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryEvent;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * The table of sealed texts outside memory snapshots (docs/architecture.md §12, erasure): it covers every free-text
 * field of every payload (sealed or deliberately plain), each site round-trips through encryption, and a destroyed
 * subject reads as erased.
 */
class SealedTextsTest {

    private static final String SPACE = "acme-planner";

    /** Every payload type of the chain (the branches of MemoryEvent.payload). */
    private static List<Schema> payloads() {
        return MemoryEvent.getClassSchema().getField("payload").schema().getTypes();
    }

    private static boolean isId(String name) {
        return name.equals("id") || name.endsWith("_id") || name.endsWith("_ids");
    }

    private static Schema nonNull(Schema s) {
        if (s.getType() == Schema.Type.UNION) {
            for (Schema t : s.getTypes()) {
                if (t.getType() != Schema.Type.NULL) {
                    return t;
                }
            }
        }
        return s;
    }

    /** Paths of the string leaves (strings and lists of strings) of a record, ids and memory snapshots aside. */
    private static void textPaths(Schema record, String prefix, Set<String> out) {
        for (Schema.Field f : record.getFields()) {
            if (isId(f.name())) {
                continue;
            }
            Schema s = nonNull(f.schema());
            if (s.getType() == Schema.Type.ARRAY) {
                s = nonNull(s.getElementType());
            }
            String path = prefix + f.name();
            if (s.getType() == Schema.Type.STRING) {
                out.add(path);
            } else if (s.getType() == Schema.Type.RECORD
                    && !s.getName().equals("Memory")
                    && !s.getName().equals("Actor")) {
                textPaths(s, path + ".", out);
            }
        }
    }

    @Test
    void everyFreeTextFieldOfEveryPayloadIsSealedOrDeliberatelyPlain() {
        Set<String> missing = new TreeSet<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Schema payload : payloads()) {
            Set<String> paths = new LinkedHashSet<>();
            textPaths(payload, "", paths);
            SealedTexts.Site site = SealedTexts.sites().stream()
                    .filter(s -> s.payload().getSimpleName().equals(payload.getName()))
                    .findFirst()
                    .orElse(null);
            List<String> sealed = site == null ? List.of() : site.paths();
            for (String path : paths) {
                String key = payload.getName() + "." + path;
                seen.add(key);
                boolean isSealed = sealed.contains(path);
                boolean isPlain = SealedTexts.PLAIN.containsKey(key);
                assertThat(isSealed && isPlain)
                        .as(key + " is both sealed and listed as plain")
                        .isFalse();
                if (!isSealed && !isPlain) {
                    missing.add(key);
                }
            }
            assertThat(paths)
                    .as("every sealed path of " + payload.getName() + " is a text field")
                    .containsAll(sealed);
        }
        assertThat(missing)
                .as("free-text fields neither sealed (SealedTexts) nor listed in SealedTexts.PLAIN: "
                        + "a new payload must say where its texts go")
                .isEmpty();
        assertThat(seen).as("every PLAIN entry names a real field").containsAll(SealedTexts.PLAIN.keySet());
    }

    @Test
    void theSitesAskedForAreSealedAndTheProofsReasonStaysPlain() {
        assertThat(SealedTexts.sites())
                .extracting(s -> s.payload().getSimpleName())
                .contains(
                        "ProposalSubmitted",
                        "ProposalResolved",
                        "ReflectionProposed",
                        "ReflectionDecided",
                        "RefinementCompleted",
                        "MemoryDeleted",
                        "MemoryExpired",
                        "MemoryPurged",
                        "MemoriesConsolidated");
        assertThat(SealedTexts.PLAIN).containsKey("MemoryErased.reason");
        assertThat(SealedTexts.session("s-1")).isEqualTo("session/s-1");
    }

    @Test
    void eachSiteRoundTripsUnderItsSubjectsKeyAndReadsErasedOnceTheKeyIsDestroyed() {
        for (SealedTexts.Site site : SealedTexts.sites()) {
            MemoryEvent plain = sample(site.payload());
            String subject = site.subject().apply(plain);
            assertThat(subject)
                    .as(site.payload().getSimpleName() + " has a subject")
                    .isNotBlank();
            byte[] key = ContentCipher.newKey();
            MemoryEvent sealed = MemoryEvent.newBuilder(plain).build();

            ChainContent.encryptTexts(sealed, s -> {
                assertThat(s).isEqualTo(subject);
                return key;
            });

            List<String> texts = texts(plain, site.paths());
            assertThat(texts)
                    .as(site.payload().getSimpleName() + " has texts at every path")
                    .hasSizeGreaterThanOrEqualTo(site.paths().size());
            assertThat(texts(sealed, site.paths()))
                    .allSatisfy(t -> assertThat(t).startsWith(ContentCipher.PREFIX));
            for (String text : texts) {
                assertThat(sealed.toString()).doesNotContain("\"" + text + "\"");
            }
            Map<String, DataKey> ring = new HashMap<>();
            ring.put(subject, new DataKey("k", 1, key, null));
            MemoryEvent read = ChainContent.decrypting((space, id) -> ring.get(id))
                    .decrypt(MemoryEvent.newBuilder(sealed).build());
            assertThat(read).as(site.payload().getSimpleName() + " round trip").isEqualTo(plain);

            ring.put(subject, new DataKey("k", 1, null, 9L));
            MemoryEvent erased = ChainContent.decrypting((space, id) -> ring.get(id))
                    .decrypt(MemoryEvent.newBuilder(sealed).build());
            assertThat(texts(erased, site.paths()))
                    .allSatisfy(t -> assertThat(t).isEqualTo(ChainContent.ERASED));

            ring.clear();
            assertThatThrownBy(() -> ChainContent.decrypting((space, id) -> ring.get(id))
                            .decrypt(MemoryEvent.newBuilder(sealed).build()))
                    .isInstanceOf(ChainContent.DataKeyUnavailableException.class);
        }
    }

    @Test
    void aTextSealedUnderOneSubjectDoesNotOpenUnderAnother() {
        MemoryEvent plain = sample(io.memorychain.avro.MemoryDeleted.class);
        byte[] key = ContentCipher.newKey();
        MemoryEvent sealed = MemoryEvent.newBuilder(plain).build();
        ChainContent.encryptTexts(sealed, s -> key);
        ((io.memorychain.avro.MemoryDeleted) sealed.getPayload()).setMemoryId("m-other");

        assertThatThrownBy(() -> ChainContent.decrypting((space, id) -> new DataKey("k", 1, key, null))
                        .decrypt(sealed))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
    }

    @Test
    void plainTextsOfOlderChainsAreReadAsTheyAre() {
        MemoryEvent plain = sample(io.memorychain.avro.ProposalSubmitted.class);
        MemoryEvent read = ChainContent.decrypting((space, id) -> {
                    throw new AssertionError("no key is needed for plain texts");
                })
                .decrypt(MemoryEvent.newBuilder(plain).build());

        assertThat(read).isEqualTo(plain);
    }

    @Test
    void aDestroyedSubjectsLaterTextsAreWrittenAsTheMarker() {
        MemoryEvent event = sample(io.memorychain.avro.ProposalResolved.class);

        ChainContent.encryptTexts(event, s -> null);

        assertThat(((io.memorychain.avro.ProposalResolved) event.getPayload()).getReason())
                .isEqualTo(ChainContent.ERASED);
    }

    private static List<String> texts(MemoryEvent event, List<String> paths) {
        List<String> out = new ArrayList<>();
        SealedTexts.map(event.getPayload(), paths, t -> {
            out.add(t);
            return t;
        });
        return out;
    }

    /** An event whose payload has every field filled, each text distinct. */
    private static MemoryEvent sample(Class<? extends SpecificRecord> payload) {
        Schema schema = SpecificData.get().getSchema(payload);
        AtomicInteger n = new AtomicInteger();
        Object value = SpecificData.get().deepCopy(schema, fill(schema, n));
        return MemoryEvent.newBuilder()
                .setSpace(SPACE)
                .setSeq(7)
                .setPrevHash(ByteBuffer.allocate(32))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("")
                .setRequestId("req-1")
                .setActor(new io.memorychain.avro.Actor(io.memorychain.avro.ActorType.AGENT, "planner"))
                .setOccurredAt(Instant.parse("2026-01-01T00:00:00Z"))
                .setSessionId(null)
                .setPayload(value)
                .build();
    }

    private static Object fill(Schema s, AtomicInteger n) {
        return switch (s.getType()) {
            case RECORD -> {
                GenericData.Record r = new GenericData.Record(s);
                for (Schema.Field f : s.getFields()) {
                    r.put(f.pos(), fill(f.schema(), n));
                }
                yield r;
            }
            case UNION -> fill(nonNull(s), n);
            case ARRAY -> new GenericData.Array<>(s, List.of(fill(s.getElementType(), n), fill(s.getElementType(), n)));
            case STRING -> "text-" + n.incrementAndGet();
            case ENUM -> new GenericData.EnumSymbol(s, s.getEnumSymbols().get(0));
            case INT -> 1;
            case LONG -> s.getLogicalType() != null ? Instant.parse("2026-01-01T00:00:00Z") : (Object) 1L;
            case DOUBLE -> 0.5;
            case FLOAT -> 0.5f;
            case BOOLEAN -> false;
            case BYTES -> ByteBuffer.allocate(0);
            default -> throw new IllegalStateException("unexpected " + s);
        };
    }
}
