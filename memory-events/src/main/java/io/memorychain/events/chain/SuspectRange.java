package io.memorychain.events.chain;

/**
 * Events of a chain signed by a key marked compromised after the seq it was still trusted for (docs/architecture.md §4,
 * key rotation): seqs {@code fromSeq..toSeq} were signed by {@code keyId}, which the {@code SigningKeyCompromised} at
 * {@code markedAtSeq} distrusts after {@code trustedUpTo}. Suspect events still hash, link and verify: they are
 * reported, not a break of the chain.
 */
public record SuspectRange(String keyId, long fromSeq, long toSeq, long trustedUpTo, long markedAtSeq) {

    /** How many events the range holds. */
    public long count() {
        return toSeq - fromSeq + 1;
    }
}
