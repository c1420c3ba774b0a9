package io.memorychain.domain.refinement;

import io.memorychain.domain.MemoryIds;

/**
 * Refinement session ids: {@code r} + the seq of the session's first event in base 36 (7 digits) + the space's
 * 4-character tag, the shape of {@link MemoryIds}. Deterministic from the chain, unique across spaces.
 */
public final class SessionIds {

    private SessionIds() {}

    public static String of(String space, long seq) {
        return "r" + MemoryIds.of(space, seq).substring(1);
    }

    /** Whether the text has the shape of a session id (any space). */
    public static boolean plausible(String id) {
        return id != null
                && id.length() == 12
                && id.charAt(0) == 'r'
                && id.chars().skip(1).allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'));
    }
}
