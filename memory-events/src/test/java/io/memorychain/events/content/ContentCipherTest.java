package io.memorychain.events.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContentCipherTest {

    private final byte[] key = ContentCipher.newKey();
    private final byte[] aad = ContentCipher.contentAad("acme-planner", "m0000001abcd");

    @Test
    void encryptsToAnEnc1StringThatDecryptsBackAndDiffersEachTime() {
        String a = ContentCipher.encrypt(key, aad, "The user's dentist is Dr. Smile");
        String b = ContentCipher.encrypt(key, aad, "The user's dentist is Dr. Smile");

        assertThat(a).startsWith("enc1:").doesNotContain("dentist").isNotEqualTo(b);
        assertThat(ContentCipher.decrypt(key, aad, a)).isEqualTo("The user's dentist is Dr. Smile");
        assertThat(ContentCipher.decrypt(key, aad, b)).isEqualTo("The user's dentist is Dr. Smile");
        assertThat(ContentCipher.encrypt(key, aad, null)).isNull();
        assertThat(ContentCipher.decrypt(key, aad, "written plain")).isEqualTo("written plain");
    }

    @Test
    void aTamperedCiphertextFailsToDecrypt() {
        String sealed = ContentCipher.encrypt(key, aad, "secret");
        byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(5));
        raw[raw.length - 20] ^= 1;
        String tampered = "enc1:" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);

        assertThatThrownBy(() -> ContentCipher.decrypt(key, aad, tampered))
                .isInstanceOf(ContentCipher.ContentCipherException.class)
                .hasMessageContaining("authentication");
        assertThatThrownBy(() -> ContentCipher.decrypt(key, aad, "enc1:%%%"))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
    }

    @Test
    void aCiphertextMovedToAnotherMemoryOrSpaceOrReadWithAnotherKeyFails() {
        String sealed = ContentCipher.encrypt(key, aad, "secret");

        assertThatThrownBy(() ->
                        ContentCipher.decrypt(key, ContentCipher.contentAad("acme-planner", "m0000002abcd"), sealed))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
        assertThatThrownBy(() ->
                        ContentCipher.decrypt(key, ContentCipher.contentAad("other-space", "m0000001abcd"), sealed))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
        assertThatThrownBy(() -> ContentCipher.decrypt(ContentCipher.newKey(), aad, sealed))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
    }

    @Test
    void theMasterKeyWrapsADataKeyForOneMemoryOnlyAndPersistsInItsFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys").resolve(MasterKey.FILE_NAME);
        MasterKey master = MasterKey.loadOrCreate(file);
        byte[] wrapped = master.wrap("s", "m1", key);

        assertThat(MasterKey.loadOrCreate(file).id())
                .as("read back, not regenerated")
                .isEqualTo(master.id());
        assertThat(Files.readString(file).trim()).hasSize(64);
        assertThat(MasterKey.loadOrCreate(file).unwrap("s", "m1", wrapped)).isEqualTo(key);
        assertThatThrownBy(() -> master.unwrap("s", "m2", wrapped))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
        assertThatThrownBy(() -> MasterKey.generate().unwrap("s", "m1", wrapped))
                .isInstanceOf(ContentCipher.ContentCipherException.class);
    }

    @Test
    void aKeyWrappedByAnotherMasterKeyIsAProcessFaultNotTheEvents() {
        MasterKey deployment = MasterKey.generate();
        DataKeyRecord record = DataKeyRecord.newBuilder()
                .setSpace("s")
                .setMemoryId("m1")
                .setKeyId("k1")
                .setCreatedSeq(1L)
                .setMasterKeyId(deployment.id())
                .setWrappedKey(java.nio.ByteBuffer.wrap(deployment.wrap("s", "m1", key)))
                .setDestroyedSeq(null)
                .build();

        assertThat(DataKeyRing.toKey(record, deployment).erased()).isFalse();
        assertThatThrownBy(() -> DataKeyRing.toKey(record, MasterKey.generate()))
                .as("retried and reported, never dead-lettered")
                .isInstanceOf(io.memorychain.events.registry.SchemaRegistryUnavailableException.class)
                .hasMessageContaining("same content master key");
    }

    @Test
    void decryptingAnEventRestoresEveryMemoryAndAnErasedKeyReadsAsTheMarker() {
        Map<String, DataKey> keys = new HashMap<>();
        byte[] k1 = ContentCipher.newKey();
        keys.put("m1", new DataKey("k1", 1, k1, null));
        keys.put("m2", new DataKey("k2", 2, null, 9L));
        ChainContent content = ChainContent.decrypting((space, id) -> keys.get(id));
        Memory before = encrypted(memory("m1", "old text"), k1);
        Memory after = encrypted(memory("m1", "new text"), k1);
        MemoryEvent update = event(new MemoryUpdated(before, after));
        Memory gone = encrypted(memory("m2", "forget me"), ContentCipher.newKey());
        MemoryEvent erased = event(new MemoryCreated(gone));

        content.decrypt(update);
        content.decrypt(erased);

        MemoryUpdated u = (MemoryUpdated) update.getPayload();
        assertThat(u.getBefore().getContent()).isEqualTo("old text");
        assertThat(u.getAfter().getContent()).isEqualTo("new text");
        assertThat(u.getAfter().getSummary()).isEqualTo("sum new text");
        assertThat(u.getAfter().getTags()).containsExactly("t1", "t2");
        Memory e = ((MemoryCreated) erased.getPayload()).getMemory();
        assertThat(e.getContent()).isEqualTo(ChainContent.ERASED);
        assertThat(e.getSummary()).isNull();
        assertThat(e.getTags()).isEmpty();
        assertThat(ChainContent.PLAINTEXT
                        .decrypt(event(new MemoryCreated(encrypted(memory("m1", "x"), k1))))
                        .getPayload())
                .extracting(p -> ((MemoryCreated) p).getMemory().getContent())
                .asString()
                .startsWith("enc1:");
        assertThatThrownBy(() -> content.decrypt(event(new MemoryCreated(encrypted(memory("m3", "x"), k1)))))
                .isInstanceOf(ChainContent.DataKeyUnavailableException.class);
    }

    private static Memory encrypted(Memory m, byte[] key) {
        byte[] aad = ContentCipher.contentAad(m.getSpace(), m.getId());
        m.setContent(ContentCipher.encrypt(key, aad, m.getContent()));
        m.setSummary(ContentCipher.encrypt(key, aad, m.getSummary()));
        List<String> tags = new ArrayList<>();
        m.getTags().forEach(t -> tags.add(ContentCipher.encrypt(key, aad, t)));
        m.setTags(tags);
        return m;
    }

    private static Memory memory(String id, String content) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return Memory.newBuilder()
                .setId(id)
                .setSpace("acme-planner")
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setContent(content)
                .setSummary("sum " + content)
                .setTags(List.of("t1", "t2"))
                .setCreatedAt(t)
                .setUpdatedAt(t)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("h")
                .build();
    }

    private static MemoryEvent event(Object payload) {
        return MemoryEvent.newBuilder()
                .setSpace("acme-planner")
                .setSeq(1)
                .setPrevHash(java.nio.ByteBuffer.allocate(32))
                .setHash(java.nio.ByteBuffer.allocate(0))
                .setSignature(java.nio.ByteBuffer.allocate(0))
                .setKeyId("")
                .setRequestId("r")
                .setActor(new io.memorychain.avro.Actor(io.memorychain.avro.ActorType.AGENT, "a"))
                .setOccurredAt(Instant.parse("2026-01-01T00:00:00Z"))
                .setPayload(payload)
                .build();
    }
}
