package io.memorychain.api.chain;

import io.memorychain.events.chain.ChainHead;

/**
 * Verifies one space's chain from the events topic (links, hashes, signatures, gaps, duplicates). The REST layer
 * depends only on this; the implementation delegates to the memory-events verifier.
 */
public interface ChainVerification {

    /** Verifies the chain; an implementation may continue after the head it verified last time. */
    ChainVerificationResult verify(String space);

    /** As {@link #verify(String)}; {@code full} reads and verifies the whole chain from seq 1 again. */
    default ChainVerificationResult verify(String space, boolean full) {
        return verify(space);
    }

    /** Verifies the space's chain and returns the verdict with the verified head (seq and hash). */
    ChainHead head(String space);

    /** The last verification of the space this instance ran (none since it started: empty); reads nothing. */
    default java.util.Optional<VerifiedHead> last(String space) {
        return java.util.Optional.empty();
    }
}
