package io.memorychain.events.chain;

/**
 * The verdict on a space's chain and the head it verified: the last good seq and its hash (the genesis, 32 zero bytes,
 * at seq 0). When the chain is broken, {@code seq} and {@code hash} are those of the last event before the first bad
 * one. {@code keys} holds what the verification learned about signing keys (rotations, compromise marks), to resume
 * from.
 */
public record ChainHead(VerificationResult result, long seq, byte[] hash, ChainKeyState keys) {

    public ChainHead {
        hash = hash.clone();
        keys = keys == null ? ChainKeyState.EMPTY : keys;
    }

    public ChainHead(VerificationResult result, long seq, byte[] hash) {
        this(result, seq, hash, ChainKeyState.EMPTY);
    }

    @Override
    public byte[] hash() {
        return hash.clone();
    }
}
