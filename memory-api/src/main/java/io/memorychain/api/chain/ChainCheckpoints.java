package io.memorychain.api.chain;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.VerificationResult;
import jakarta.inject.Singleton;

/**
 * Signed checkpoints and the published public keys (docs/chain-format.md §5, §8): the service signs only a head it
 * has just verified from the events topic, so a checkpoint is never issued for a broken chain.
 */
@Singleton
public class ChainCheckpoints {

    private final ChainVerification verification;
    private final MemoryBackend backend;

    public ChainCheckpoints(ChainVerification verification, MemoryBackend backend) {
        this.verification = verification;
        this.backend = backend;
    }

    /** The signed head of the space's chain; CHAIN_BROKEN (409) when it does not verify. */
    public CheckpointJson checkpoint(String space) {
        ChainHead head = verification.head(space);
        VerificationResult result = head.result();
        if (!result.ok()) {
            throw new ApiException(ErrorCodes.CHAIN_BROKEN, "the chain of space '" + space + "' is broken at seq "
                    + result.firstBadSeq() + " (" + result.problem() + "): no checkpoint is signed for it");
        }
        return CheckpointJson.of(backend.signCheckpoint(space, head.seq(), head.hash()));
    }

    /** The chain public keys. */
    public PublicKeysJson publicKeys() {
        return new PublicKeysJson(backend.publishedKeys().stream().map(PublicKeysJson.Key::of).toList());
    }
}
