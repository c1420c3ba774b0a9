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
    private final java.util.Map<String, CheckpointJson> last = new java.util.concurrent.ConcurrentHashMap<>();

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
        CheckpointJson signed = CheckpointJson.of(backend.signCheckpoint(space, head.seq(), head.hash()));
        last.put(space, signed);
        return signed;
    }

    /** The last checkpoint this instance signed for the space (none since it started: empty); reads nothing. */
    public java.util.Optional<CheckpointJson> last(String space) {
        return java.util.Optional.ofNullable(last.get(space));
    }

    /** The chain public keys. */
    public PublicKeysJson publicKeys() {
        return new PublicKeysJson(backend.publishedKeys().stream().map(PublicKeysJson.Key::of).toList());
    }
}
