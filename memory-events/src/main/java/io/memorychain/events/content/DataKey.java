package io.memorychain.events.content;

/**
 * A memory's data key as a reader knows it (docs/architecture.md §12, erasure).
 *
 * @param keyId the key's public id (see {@code DataKeyRecord.key_id})
 * @param createdSeq seq of the first event encrypted with it
 * @param key the raw AES-256 key; null once destroyed
 * @param erasedSeq seq of the {@code MemoryErased} event that destroyed it; null while it lives
 */
public record DataKey(String keyId, long createdSeq, byte[] key, Long erasedSeq) {

    public boolean erased() {
        return key == null;
    }
}
