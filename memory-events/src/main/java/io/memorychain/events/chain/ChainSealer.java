package io.memorychain.events.chain;

import io.memorychain.avro.MemoryEvent;
import java.nio.ByteBuffer;

/** Fills in an event's hash, signature and key id: the only way events get onto the chain (used by the sequencer). */
public final class ChainSealer {

    private final ChainKeys keys;

    public ChainSealer(ChainKeys keys) {
        this.keys = keys;
    }

    /** Seals the event in place (its prev_hash and seq must already be set) and returns it. */
    public MemoryEvent seal(MemoryEvent event) {
        event.setKeyId(keys.keyId());
        byte[] hash = Canonical.hash(event);
        event.setHash(ByteBuffer.wrap(hash));
        event.setSignature(ByteBuffer.wrap(keys.sign(hash)));
        return event;
    }

    public String keyId() {
        return keys.keyId();
    }
}
