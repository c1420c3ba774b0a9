package io.memorychain.events.chain;

/**
 * Which event signatures a {@link ChainVerifier} checks. Hashes and links are always checked on every event.
 *
 * <ul>
 *   <li>{@link #ALL}: every event's signature (~80 us per event with BouncyCastle).
 *   <li>{@link #checkpoints(int) checkpoints(n)}: the signature of every event whose seq is a multiple of {@code n},
 *       and of the last event verified. Because each hash covers the previous hash, one valid signature authenticates
 *       the whole prefix of the chain before it; see {@link ChainVerifier}.
 * </ul>
 *
 * @param every a signature is checked on each event whose seq is a multiple of this (1 = every event)
 */
public record SignatureMode(int every) {

    /** Every signature is checked. */
    public static final SignatureMode ALL = new SignatureMode(1);

    public SignatureMode {
        if (every < 1) {
            throw new IllegalArgumentException("checkpoint interval must be >= 1: " + every);
        }
    }

    /** Signatures checked on every {@code every}-th seq and on the last event. */
    public static SignatureMode checkpoints(int every) {
        return new SignatureMode(every);
    }

    /** Whether every signature is checked. */
    public boolean checksAll() {
        return every == 1;
    }

    /** Whether the signature of the event at {@code seq} is a checkpoint to check as it is read. */
    public boolean isCheckpoint(long seq) {
        return every == 1 || seq % every == 0;
    }

    @Override
    public String toString() {
        return checksAll() ? "ALL" : "CHECKPOINTS(" + every + ")";
    }
}
