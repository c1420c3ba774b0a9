package io.memorychain.api.chain;

/**
 * Verifies one space's chain from the events topic (links, hashes, signatures, gaps, duplicates). The REST layer
 * depends only on this; the implementation delegates to the memory-events verifier.
 */
public interface ChainVerification {

    ChainVerificationResult verify(String space);
}
