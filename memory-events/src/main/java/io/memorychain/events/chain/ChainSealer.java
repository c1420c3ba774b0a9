package io.memorychain.events.chain;

import io.memorychain.avro.MemoryEvent;
import java.nio.ByteBuffer;

/**
 * Fills in an event's hash, signature and key id: the only way events get onto the chain (used by the sequencer). A
 * space signs with the default key until it rotates (docs/architecture.md §4); then with the key it rotated to.
 */
public final class ChainSealer {

    private final SigningKeys keys;

    public ChainSealer(ChainKeys keys) {
        this(SigningKeys.of(keys));
    }

    public ChainSealer(SigningKeys keys) {
        this.keys = keys;
    }

    /** Seals the event with the default key (its prev_hash and seq must already be set) and returns it. */
    public MemoryEvent seal(MemoryEvent event) {
        return seal(event, keys.defaultKey());
    }

    /**
     * Seals the event with the key {@code keyId} (null: the default).
     *
     * @throws IllegalStateException when that private key is not held
     */
    public MemoryEvent seal(MemoryEvent event, String keyId) {
        if (keyId == null) {
            return seal(event);
        }
        return seal(
                event,
                keys.find(keyId)
                        .orElseThrow(() -> new IllegalStateException("the chain signing key "
                                + keyId + " of space " + event.getSpace()
                                + " is not in the key directory: provision its file "
                                + "chain-signing-" + keyId + ".key")));
    }

    private static MemoryEvent seal(MemoryEvent event, ChainKeys key) {
        event.setKeyId(key.keyId());
        byte[] hash = Canonical.hash(event);
        event.setHash(ByteBuffer.wrap(hash));
        event.setSignature(ByteBuffer.wrap(key.sign(hash)));
        return event;
    }

    /** The default key's id. */
    public String keyId() {
        return keys.defaultKey().keyId();
    }

    /** The signing keys. */
    public SigningKeys keys() {
        return keys;
    }
}
