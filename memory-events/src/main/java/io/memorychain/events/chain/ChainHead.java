package io.memorychain.events.chain;

/**
 * The verdict on a space's chain and the head it verified: the last good seq and its hash (the genesis, 32 zero
 * bytes, at seq 0). When the chain is broken, {@code seq} and {@code hash} are those of the last event before the
 * first bad one.
 */
public record ChainHead(VerificationResult result, long seq, byte[] hash) {

    public ChainHead {
        hash = hash.clone();
    }

    @Override
    public byte[] hash() {
        return hash.clone();
    }
}
