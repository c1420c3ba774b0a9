package io.memorychain.api.chain;

import io.memorychain.events.chain.ChainHead;

/**
 * Verifies one space's chain from the events topic (links, hashes, signatures, gaps, duplicates). The REST layer
 * depends only on this; the implementation delegates to the memory-events verifier.
 */
public interface ChainVerification {

    ChainVerificationResult verify(String space);

    /** Verifies the space's chain and returns the verdict with the verified head (seq and hash). */
    ChainHead head(String space);
}
