package io.memorychain.projector.sequencer;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.domain.support.LruMap;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.DataKey;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.content.SealedTexts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The sequencer's half of erasure (docs/architecture.md §12, crypto-shredding): before an event is sealed, the content,
 * summary and tags of every memory snapshot in it are encrypted with that memory's data key (created, wrapped by the
 * master key and handed to {@code keyRecords} the first time a memory appears); a {@code MemoryErased} gets the
 * destroyed key's id and a key record without key material. The other sealed texts ({@link SealedTexts}: proposals,
 * reflections, refinement summaries, memory-scoped reasons) are encrypted the same way under their subject's key; an
 * erasure also destroys the keys of the subjects it cascades to. The wrapped keys stay in the sequencer's own store
 * ({@link SequencerTopology#KEYS_STORE}) for the memory's later events. Without a master key (topologies built
 * directly, e.g. in unit tests) texts stay plain and an erasure only records that there was no key.
 */
final class ContentEncryptor {

    /** How many unwrapped data keys are kept (the most recently used), about 100 bytes each. */
    static final int KEY_CACHE_SIZE = 4096;

    private final MasterKey master;
    private final KeyValueStore<String, DataKeyRecord> keys;
    /**
     * Unwrapped data keys by store key, each with the wrapped bytes it came from: an entry serves only while the record
     * still holds those bytes (a destroyed key, or a key re-created after an aborted transaction, misses). One per
     * sequencer task (its processor's thread), so no locking.
     */
    private final Map<String, Unwrapped> unwrapped = new LruMap<>(KEY_CACHE_SIZE);

    private record Unwrapped(ByteBuffer wrapped, DataKey key) {}

    /** @param master null: no encryption */
    ContentEncryptor(MasterKey master, KeyValueStore<String, DataKeyRecord> keys) {
        this.master = master;
        this.keys = keys;
    }

    /**
     * The event as it goes on the chain: a deep copy with its memories' texts encrypted (the plain event stays with the
     * caller for the write model), a {@code MemoryErased} completed with the destroyed key. Key records to write in the
     * same transaction, before the event, go to {@code keyRecords}.
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
        if (found.isEmpty() && !SealedTexts.hasTexts(plain)) {
            return plain;
        }
        MemoryEvent copy = MemoryEvent.newBuilder(plain).build();
        ChainContent.forEachMemory(copy.getPayload(), m -> encrypt(m, plain.getSeq(), keyRecords));
        ChainContent.encryptTexts(copy, subject -> {
            DataKey key = unwrap(keyRecord(plain.getSpace(), subject, plain.getSeq(), keyRecords));
            return key.erased() ? null : key.key(); // a destroyed subject's later texts go on the chain as [erased]
        });
        return copy;
    }

    /** The subject's key record (a memory id or another subject, {@link SealedTexts}), created on first use. */
    private DataKeyRecord keyRecord(String space, String subject, long seq, Consumer<DataKeyRecord> keyRecords) {
        String storeKey = DataKeyRing.recordKey(space, subject);
        DataKeyRecord record = keys.get(storeKey);
        if (record == null) {
            byte[] raw = ContentCipher.newKey();
            record = DataKeyRecord.newBuilder()
                    .setSpace(space)
                    .setMemoryId(subject)
                    .setKeyId(keyId(space, subject, seq))
                    .setCreatedSeq(seq)
                    .setMasterKeyId(master.id())
                    .setWrappedKey(ByteBuffer.wrap(master.wrap(space, subject, raw)))
                    .setDestroyedSeq(null)
                    .build();
            keys.put(storeKey, record);
            keyRecords.accept(record);
        }
        return record;
    }

    /** The record's data key, unwrapped with the master key once and then served from {@link #unwrapped}. */
    private DataKey unwrap(DataKeyRecord record) {
        String storeKey = DataKeyRing.recordKey(record.getSpace(), record.getMemoryId());
        Unwrapped cached = unwrapped.get(storeKey);
        if (cached != null && cached.wrapped().equals(record.getWrappedKey())) {
            return cached.key();
        }
        DataKey key = DataKeyRing.toKey(record, master);
        if (key.erased()) {
            unwrapped.remove(storeKey);
        } else {
            unwrapped.put(storeKey, new Unwrapped(record.getWrappedKey().duplicate(), key));
        }
        return key;
    }

    private void encrypt(Memory m, long seq, Consumer<DataKeyRecord> keyRecords) {
        DataKey key = unwrap(keyRecord(m.getSpace(), m.getId(), seq, keyRecords));
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

    /**
     * Destroys the erased memory's key and the keys of the subjects the erasure cascades to
     * ({@code destroyed_subjects}, filled by the sequencer from its links): one destroyed record each, a subject
     * without a key yet gets a destroyed one so that its later texts go on the chain as [erased].
     */
    private MemoryEvent destroy(MemoryEvent plain, MemoryErased erased, Consumer<DataKeyRecord> keyRecords) {
        if (master == null) {
            return plain;
        }
        for (String subject : erased.getDestroyedSubjects()) {
            String storeKey = DataKeyRing.recordKey(plain.getSpace(), subject);
            DataKeyRecord record = keys.get(storeKey);
            if (record != null && record.getWrappedKey() == null) {
                continue; // destroyed before: never twice
            }
            DataKeyRecord destroyed = record != null
                    ? DataKeyRecord.newBuilder(record)
                            .setWrappedKey(null)
                            .setDestroyedSeq(plain.getSeq())
                            .build()
                    : DataKeyRecord.newBuilder()
                            .setSpace(plain.getSpace())
                            .setMemoryId(subject)
                            .setKeyId(keyId(plain.getSpace(), subject, plain.getSeq()))
                            .setCreatedSeq(plain.getSeq())
                            .setMasterKeyId(master.id())
                            .setWrappedKey(null)
                            .setDestroyedSeq(plain.getSeq())
                            .build();
            keys.put(storeKey, destroyed);
            keyRecords.accept(destroyed);
        }
        String storeKey = DataKeyRing.recordKey(plain.getSpace(), erased.getMemoryId());
        DataKeyRecord record = keys.get(storeKey);
        if (record == null) {
            return plain; // written with encryption off: nothing to destroy, data_key_id stays null
        }
        DataKeyRecord destroyed = DataKeyRecord.newBuilder(record)
                .setWrappedKey(null)
                .setDestroyedSeq(plain.getSeq())
                .build();
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
        byte[] digest =
                Canonical.sha256((space + "\0" + memoryId + "\0" + createdSeq).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, 8);
    }
}
