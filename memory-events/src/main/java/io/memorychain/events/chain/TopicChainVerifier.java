package io.memorychain.events.chain;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.generic.IndexedRecord;

/**
 * Verifies the chains of every space found in an events topic at once: one partition holds many spaces, interleaved, so
 * records are fed in log order with their key (the space) and dispatched to one {@link ChainVerifier} per space. Memory
 * is O(spaces), constant per space.
 */
public final class TopicChainVerifier {

    private final KeyRing keys;
    private final SignatureMode mode;
    private final Map<String, ChainVerifier> chains = new HashMap<>();
    private long records;

    public TopicChainVerifier(KeyRing keys, SignatureMode mode) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /**
     * Feeds the next event of {@code space} (the record key).
     *
     * @return true while that space's chain is intact
     */
    public boolean accept(String space, IndexedRecord event) {
        records++;
        return chain(space).accept(event);
    }

    /** Records that the next record of {@code space} could not be decoded ({@code UNDECODABLE}). */
    public boolean acceptUndecodable(String space, String reason) {
        records++;
        return chain(space).acceptUndecodable(reason);
    }

    /** Whether {@code space}'s chain has already been found broken. */
    public boolean isBroken(String space) {
        ChainVerifier chain = chains.get(space);
        return chain != null && chain.isBroken();
    }

    /** Records fed so far, all spaces together. */
    public long records() {
        return records;
    }

    /** Spaces seen so far. */
    public int spaces() {
        return chains.size();
    }

    /** The verdict for every space seen, sorted by space (see {@link ChainVerifier#result()}). */
    public Map<String, VerificationResult> results() {
        Map<String, VerificationResult> results = new TreeMap<>();
        chains.forEach((space, chain) -> results.put(space, chain.result()));
        return results;
    }

    private ChainVerifier chain(String space) {
        return chains.computeIfAbsent(space, s -> new ChainVerifier(s, keys, mode));
    }
}
