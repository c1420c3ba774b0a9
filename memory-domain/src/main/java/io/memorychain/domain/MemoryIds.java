package io.memorychain.domain;

import java.nio.charset.StandardCharsets;

/**
 * Memory ids: {@code m} + the creating event's seq in base 36 (7 digits, zero-padded) + a 4-character tag of the space.
 * Deterministic from the chain (a replay assigns the same ids), short, sortable by creation within a space, and
 * distinct across spaces so an id from one space never resolves in another.
 */
public final class MemoryIds {

    private static final int SEQ_DIGITS = 7;

    private MemoryIds() {}

    public static String of(String space, long seq) {
        return of("m", space, seq);
    }

    /** Proposal ids (docs/architecture.md §10): the same shape with {@code p}: the ProposalSubmitted event's seq. */
    public static String proposal(String space, long seq) {
        return of("p", space, seq);
    }

    /** Reflection ids (docs/architecture.md §18): the same shape with {@code r}: the ReflectionProposed event's seq. */
    public static String reflection(String space, long seq) {
        return of("r", space, seq);
    }

    /** Grant ids (docs/architecture.md §13): the same shape with {@code g}: the AccessGrantRequested event's seq. */
    public static String grant(String space, long seq) {
        return of("g", space, seq);
    }

    /** Consent request ids (docs/architecture.md §21): {@code c} + the ConsentRequested event's seq. */
    public static String consent(String space, long seq) {
        return of("c", space, seq);
    }

    /** Critical-change alert ids (docs/architecture.md §21): {@code a} + the CriticalChangeAlerted event's seq. */
    public static String alert(String space, long seq) {
        return of("a", space, seq);
    }

    /** Contradiction ids (docs/architecture.md §10): {@code x} + the ContradictionFlagged event's seq. */
    public static String contradiction(String space, long seq) {
        return of("x", space, seq);
    }

    private static String of(String prefix, String space, long seq) {
        String digits = Long.toString(seq, 36);
        return prefix + "0".repeat(Math.max(0, SEQ_DIGITS - digits.length())) + digits + spaceTag(space);
    }

    static String spaceTag(String space) {
        byte[] h = Hashes.sha256(space.getBytes(StandardCharsets.UTF_8));
        long v = ((h[0] & 0xffL) << 16) | ((h[1] & 0xffL) << 8) | (h[2] & 0xffL);
        String tag = Long.toString(v % (36L * 36 * 36 * 36), 36);
        return "0".repeat(4 - tag.length()) + tag;
    }

    /** Whether the id has the shape of an id minted for this space. */
    public static boolean belongsTo(String id, String space) {
        return id != null && id.length() >= 1 + SEQ_DIGITS + 4 && id.startsWith("m") && id.endsWith(spaceTag(space));
    }
}
