package io.memorychain.events.chain;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a verifier learns about signing keys while it reads one space's chain (docs/architecture.md §4, key rotation):
 * the key the chain declared by its last {@code SigningKeyRotated} (null before any: then any trusted key may sign),
 * the public keys those rotations introduced (authenticated by the signature of the key they replace), which key signed
 * which seqs (as runs, so memory grows with the number of key changes, not with the chain) and the compromise marks.
 * Immutable: a verifier replaces it as it goes, and a resumed verification starts from a copy.
 *
 * @param currentKeyId the key every event must be signed with since the last rotation, or null before any rotation
 * @param learned public keys introduced by rotations, hex by key id
 * @param runs consecutive seqs signed by one key, in chain order
 * @param marks per compromised key id, the lowest from_seq marked and the seq of that mark
 */
public record ChainKeyState(String currentKeyId, Map<String, String> learned, List<Run> runs, Map<String, Mark> marks) {

    /** The state at the genesis. */
    public static final ChainKeyState EMPTY = new ChainKeyState(null, Map.of(), List.of(), Map.of());

    /** Seqs {@code first..last} signed by {@code keyId}. */
    public record Run(String keyId, long first, long last) {}

    /** The key's events after {@code trustedUpTo} are suspect, as marked at {@code markedAtSeq}. */
    public record Mark(long trustedUpTo, long markedAtSeq) {}

    public ChainKeyState {
        learned = Map.copyOf(learned);
        runs = List.copyOf(runs);
        marks = Map.copyOf(marks);
    }

    /** The public key a rotation introduced, if any. */
    public byte[] learnedKey(String keyId) {
        String hex = learned.get(keyId);
        return hex == null ? null : HexFormat.of().parseHex(hex);
    }

    /** With seqs {@code first..last} signed by {@code keyId} (joined to the last run when it continues it). */
    ChainKeyState withRun(String keyId, long first, long last) {
        List<Run> next = new ArrayList<>(runs);
        Run previous = next.isEmpty() ? null : next.get(next.size() - 1);
        if (previous != null && previous.keyId().equals(keyId) && previous.last() == first - 1) {
            next.set(next.size() - 1, new Run(keyId, previous.first(), last));
        } else {
            next.add(new Run(keyId, first, last));
        }
        return new ChainKeyState(currentKeyId, learned, next, marks);
    }

    /** With the chain's key rotated to {@code keyId} (raw public key {@code publicKey}). */
    ChainKeyState rotated(String keyId, byte[] publicKey) {
        Map<String, String> keys = new LinkedHashMap<>(learned);
        keys.put(keyId, HexFormat.of().formatHex(publicKey));
        return new ChainKeyState(keyId, keys, runs, marks);
    }

    /** With {@code keyId} distrusted after {@code trustedUpTo} (the lowest mark of a key wins). */
    ChainKeyState compromised(String keyId, long trustedUpTo, long markedAtSeq) {
        Mark previous = marks.get(keyId);
        if (previous != null && previous.trustedUpTo() <= trustedUpTo) {
            return this;
        }
        Map<String, Mark> next = new LinkedHashMap<>(marks);
        next.put(keyId, new Mark(trustedUpTo, markedAtSeq));
        return new ChainKeyState(currentKeyId, learned, runs, next);
    }

    /** The events signed by a compromised key after the seq it is trusted up to, in chain order. */
    public List<SuspectRange> suspects() {
        List<SuspectRange> out = new ArrayList<>();
        for (Run run : runs) {
            Mark mark = marks.get(run.keyId());
            if (mark == null || run.last() <= mark.trustedUpTo()) {
                continue;
            }
            out.add(new SuspectRange(
                    run.keyId(),
                    Math.max(run.first(), mark.trustedUpTo() + 1),
                    run.last(),
                    mark.trustedUpTo(),
                    mark.markedAtSeq()));
        }
        return out;
    }
}
