package io.memorychain.projector.sequencer;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.DataKey;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The sequencer's half of erasure (docs/architecture.md §12, crypto-shredding): before an event is sealed, the
 * content, summary and tags of every memory snapshot in it are encrypted with that memory's data key (created, wrapped
 * by the master key and handed to {@code keyRecords} the first time a memory appears); a {@code MemoryErased} gets
 * the destroyed key's id and a key record without key material. The wrapped keys stay in the sequencer's own store
 * ({@link SequencerTopology#KEYS_STORE}) for the memory's later events. Without a master key (topologies built
 * directly, e.g. in unit tests) texts stay plain and an erasure only records that there was no key.
 */
final class ContentEncryptor {

    private final MasterKey master;
    private final KeyValueStore<String, DataKeyRecord> keys;

    /** @param master null: no encryption */
    ContentEncryptor(MasterKey master, KeyValueStore<String, DataKeyRecord> keys) {
        this.master = master;
        this.keys = keys;
    }

    /**
     * The event as it goes on the chain: a deep copy with its memories' texts encrypted (the plain event stays with
     * the caller for the write model), a {@code MemoryErased} completed with the destroyed key. Key records to write
     * in the same transaction, before the event, go to {@code keyRecords}.
     */
    MemoryEvent onChain(MemoryEvent plain, Consumer<DataKeyRecord> keyRecords) {
        if (plain.getPayload() instanceof MemoryErased erased) {
            return destroy(plain, erased, keyRecords);
        }
        if (master == null) {
            return plain;
        }
        List<Memory> found = new ArrayList<>(2);
        ChainContent.forEachMemory(plain.getPayload(), found::add);
        if (found.isEmpty()) {
            return plain;
        }
        MemoryEvent copy = MemoryEvent.newBuilder(plain).build();
        ChainContent.forEachMemory(copy.getPayload(), m -> encrypt(m, plain.getSeq(), keyRecords));
        return copy;
    }

    private void encrypt(Memory m, long seq, Consumer<DataKeyRecord> keyRecords) {
        String storeKey = DataKeyRing.recordKey(m.getSpace(), m.getId());
        DataKeyRecord record = keys.get(storeKey);
        if (record == null) {
            byte[] raw = ContentCipher.newKey();
            record = DataKeyRecord.newBuilder().setSpace(m.getSpace()).setMemoryId(m.getId())
                    .setKeyId(keyId(m.getSpace(), m.getId(), seq)).setCreatedSeq(seq).setMasterKeyId(master.id())
                    .setWrappedKey(ByteBuffer.wrap(master.wrap(m.getSpace(), m.getId(), raw))).setDestroyedSeq(null)
                    .build();
            keys.put(storeKey, record);
            keyRecords.accept(record);
        }
        DataKey key = DataKeyRing.toKey(record, master);
        if (key.erased()) {
            // an erased memory's tombstone holds no text of its own; anything else would be a broken invariant
            if (!io.memorychain.domain.Purges.isErased(m)) {
                throw new IllegalStateException("memory " + m.getId() + " of " + m.getSpace()
                        + " has a destroyed data key but is not an erased tombstone");
            }
            return;
        }
        ChainContent.encrypt(m, key.key());
    }

    private MemoryEvent destroy(MemoryEvent plain, MemoryErased erased, Consumer<DataKeyRecord> keyRecords) {
        String storeKey = DataKeyRing.recordKey(plain.getSpace(), erased.getMemoryId());
        DataKeyRecord record = keys.get(storeKey);
        if (record == null) {
            return plain; // written with encryption off: nothing to destroy, data_key_id stays null
        }
        DataKeyRecord destroyed = DataKeyRecord.newBuilder(record).setWrappedKey(null)
                .setDestroyedSeq(plain.getSeq()).build();
        keys.put(storeKey, destroyed);
        keyRecords.accept(destroyed);
        MemoryEvent copy = MemoryEvent.newBuilder(plain).build();
        MemoryErased completed = (MemoryErased) copy.getPayload();
        completed.setDataKeyId(record.getKeyId());
        completed.setKeyCreatedSeq(record.getCreatedSeq());
        return copy;
    }

    /** First 16 hex digits of SHA-256(space NUL memory id NUL created seq). */
    static String keyId(String space, String memoryId, long createdSeq) {
        byte[] digest = Canonical.sha256((space + "\0" + memoryId + "\0" + createdSeq)
                .getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, 8);
    }
}
