package io.memorychain.api.chain;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.VerificationResult;
import jakarta.inject.Singleton;

/**
 * Signed checkpoints and the published public keys (docs/chain-format.md §5, §8): the service signs only a head it has
 * just verified from the events topic, so a checkpoint is never issued for a broken chain.
 */
@Singleton
public class ChainCheckpoints {

    private final ChainVerification verification;
    private final MemoryBackend backend;
    private final java.util.Map<String, CheckpointJson> last = new java.util.concurrent.ConcurrentHashMap<>();
    private static final io.memorychain.events.chain.ChainKeyEvents.Snapshot NO_KEY_EVENTS =
            new io.memorychain.events.chain.ChainKeyEvents.Snapshot(java.util.Map.of(), java.util.List.of());
    private io.memorychain.events.chain.ChainKeyEvents keyEvents;
    private io.memorychain.events.chain.ChainKeyEvents.Snapshot lastKeyEvents = NO_KEY_EVENTS;
    private long keyEventsAt;

    public ChainCheckpoints(ChainVerification verification, MemoryBackend backend) {
        this.verification = verification;
        this.backend = backend;
    }

    /** The signed head of the space's chain; CHAIN_BROKEN (409) when it does not verify. */
    public CheckpointJson checkpoint(String space) {
        ChainHead head = verification.head(space);
        VerificationResult result = head.result();
        if (!result.ok()) {
            throw new ApiException(
                    ErrorCodes.CHAIN_BROKEN,
                    "the chain of space '" + space + "' is broken at seq " + result.firstBadSeq() + " ("
                            + result.problem() + "): no checkpoint is signed for it");
        }
        CheckpointJson signed = CheckpointJson.of(backend.signCheckpoint(space, head.seq(), head.hash()));
        last.put(space, signed);
        return signed;
    }

    /** The last checkpoint this instance signed for the space (none since it started: empty); reads nothing. */
    public java.util.Optional<CheckpointJson> last(String space) {
        return java.util.Optional.ofNullable(last.get(space));
    }

    /** The chain public keys, with their status by the key events of every chain (docs/architecture.md §4). */
    public PublicKeysJson publicKeys() {
        io.memorychain.events.chain.ChainKeyEvents.Snapshot events = keyEvents();
        return new PublicKeysJson(backend.publishedKeys().stream()
                .map(PublicKeysJson.Key::of)
                .map(key -> {
                    java.util.List<String> spaces = events.currentBySpace().values().stream()
                            .filter(r -> r.newKeyId().equals(key.keyId()))
                            .map(r -> r.space())
                            .sorted()
                            .toList();
                    java.util.List<PublicKeysJson.Compromise> marks = events.compromises().stream()
                            .filter(c -> c.keyId().equals(key.keyId()))
                            .map(c -> new PublicKeysJson.Compromise(c.space(), c.trustedUpTo(), c.markedAtSeq()))
                            .toList();
                    String status =
                            !marks.isEmpty() ? "compromised" : key.active() || !spaces.isEmpty() ? "active" : "retired";
                    return key.withStatus(status, spaces, marks);
                })
                .toList());
    }

    /**
     * The key events of every chain, read again at most once a second (the keys are served without an API key); none
     * when the service signs nothing itself or the log cannot be read now (the keys are then served without their
     * rotations and marks, and a warning is logged).
     */
    private synchronized io.memorychain.events.chain.ChainKeyEvents.Snapshot keyEvents() {
        if (backend.signingKeys().isEmpty()) {
            return NO_KEY_EVENTS;
        }
        long now = System.nanoTime();
        if (keyEventsAt != 0 && now - keyEventsAt < 1_000_000_000L) {
            return lastKeyEvents;
        }
        try {
            if (keyEvents == null) {
                keyEvents = new io.memorychain.events.chain.ChainKeyEvents(
                        java.util.Map.of("bootstrap.servers", backend.bootstrapServers()),
                        backend.topics().events(),
                        backend.registry());
            }
            lastKeyEvents = keyEvents.refresh();
            keyEventsAt = now;
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(ChainCheckpoints.class)
                    .warn("Cannot read the chains' key events for the key status: {}", e.toString());
        }
        return lastKeyEvents;
    }
}
