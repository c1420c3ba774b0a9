package io.memorychain.events.chain;

import java.util.Objects;

/**
 * The verdict on one space's chain.
 *
 * <p>When the chain is intact, {@code ok} is true, {@code firstBadSeq} and {@code problem} are null, and {@code events}
 * is the number of events verified. Otherwise {@code firstBadSeq} is the first chain position that could not be
 * verified: every event with a smaller seq was verified (in {@link SignatureMode#checkpoints(int)} mode, see
 * {@link ChainVerifier} for what that means for signatures), so the intact prefix of the chain is {@code 1 ..
 * firstBadSeq - 1}. For content problems ({@link Problem#BROKEN_LINK}, {@link Problem#BAD_HASH},
 * {@link Problem#UNKNOWN_KEY}, {@link Problem#BAD_SIGNATURE}) that is the seq of the offending event itself; for
 * ordering and decoding problems ({@link Problem#GAP}, {@link Problem#DUPLICATE}, {@link Problem#UNDECODABLE},
 * {@link Problem#WRONG_SPACE}) it is the seq that was expected next (last good seq + 1), and the message names the seq
 * actually found. {@code events} then counts the records examined up to and including the bad one: verification of a
 * space stops at its first problem.
 *
 * @param ok whether the whole chain verified
 * @param events events verified (ok) or records examined up to and including the first bad one (broken)
 * @param firstBadSeq the first chain position that failed, or null when ok
 * @param problem why it failed, or null when ok
 * @param message a human-readable explanation (for ok results: the chain head)
 * @param suspects events verified so far that a key marked compromised signed after the seq it is trusted up to
 *     (docs/architecture.md §4): reported, not a break; empty when there are none
 */
public record VerificationResult(
        boolean ok,
        long events,
        Long firstBadSeq,
        Problem problem,
        String message,
        java.util.List<SuspectRange> suspects) {

    public VerificationResult(boolean ok, long events, Long firstBadSeq, Problem problem, String message) {
        this(ok, events, firstBadSeq, problem, message, java.util.List.of());
    }

    /** Why a chain failed verification. */
    public enum Problem {
        /** {@code prev_hash} differs from the hash of the previous event (or from 32 zero bytes at seq 1). */
        BROKEN_LINK,
        /** The stored {@code hash} differs from SHA-256 of the event's canonical bytes: the content was changed. */
        BAD_HASH,
        /** The Ed25519 signature over the hash does not verify with the key named by {@code key_id}. */
        BAD_SIGNATURE,
        /** {@code key_id} names no key in the verifier's key ring. */
        UNKNOWN_KEY,
        /** A seq is missing: the event found has a higher seq than the one expected. */
        GAP,
        /** A seq repeats or goes back: the event found has a seq lower than the one expected. */
        DUPLICATE,
        /** A record of the space (by its key) cannot be decoded, or is not a chain event. */
        UNDECODABLE,
        /** An event under this space's key claims to belong to another space. */
        WRONG_SPACE,
        /**
         * A {@code SigningKeyRotated} that is not signed by the key it replaces (its key id is not its
         * {@code previous_key_id}, or not the key the chain was rotated to before), or whose new public key does not
         * hash to its {@code new_key_id}.
         */
        BAD_ROTATION,
        /** After a key rotation, an event signed by another key than the one the chain rotated to. */
        WRONG_KEY
    }

    public VerificationResult {
        if (events < 0) {
            throw new IllegalArgumentException("events must be >= 0: " + events);
        }
        if (ok && (firstBadSeq != null || problem != null)) {
            throw new IllegalArgumentException("an ok result has no bad seq and no problem");
        }
        if (!ok) {
            Objects.requireNonNull(firstBadSeq, "firstBadSeq");
            Objects.requireNonNull(problem, "problem");
        }
        Objects.requireNonNull(message, "message");
        suspects = suspects == null ? java.util.List.of() : java.util.List.copyOf(suspects);
    }

    /** An intact chain of {@code events} events. */
    public static VerificationResult intact(long events, String message) {
        return new VerificationResult(true, events, null, null, message);
    }

    /** The same verdict reporting these suspect events. */
    public VerificationResult withSuspects(java.util.List<SuspectRange> found) {
        return new VerificationResult(ok, events, firstBadSeq, problem, message, found);
    }

    /** How many suspect events the verdict reports. */
    public long suspectEvents() {
        return suspects.stream().mapToLong(SuspectRange::count).sum();
    }

    /** A chain broken at {@code seq}. */
    public static VerificationResult broken(long events, long seq, Problem problem, String message) {
        return new VerificationResult(false, events, seq, problem, message);
    }

    /** The same verdict with {@code suffix} appended to the message (e.g. the record's topic coordinates). */
    public VerificationResult withMessageSuffix(String suffix) {
        return new VerificationResult(ok, events, firstBadSeq, problem, message + suffix, suspects);
    }
}
