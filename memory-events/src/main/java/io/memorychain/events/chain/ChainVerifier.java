package io.memorychain.events.chain;

import io.memorychain.events.chain.VerificationResult.Problem;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Streaming verifier of ONE space's chain, fed event by event in log order, in O(1) memory: it keeps only the last good
 * seq, the last hash and (in checkpoint mode) the last not-yet-checked signature. Feed it generated
 * {@code MemoryEvent}s or {@code GenericRecord}s decoded with their own writer schema (as
 * {@code AvroWireSerde.decodeAsWritten} returns them); both hash to the same canonical bytes ({@link Canonical}).
 *
 * <p>For each event, in this order: the space matches ({@link Problem#WRONG_SPACE}); the seq is the previous seq + 1
 * ({@link Problem#DUPLICATE} when lower, {@link Problem#GAP} when higher; the first seq must be 1); {@code prev_hash}
 * equals the previous event's hash, or {@link Canonical#GENESIS} at seq 1 ({@link Problem#BROKEN_LINK}); the stored
 * hash equals SHA-256 of the canonical bytes ({@link Problem#BAD_HASH}); {@code key_id} is in the key ring
 * ({@link Problem#UNKNOWN_KEY}, checked on every event: it is a map lookup); and, depending on the
 * {@link SignatureMode}, the Ed25519 signature over the hash ({@link Problem#BAD_SIGNATURE}). Verification stops at the
 * first problem; {@link #result()} reports it (see {@link VerificationResult} for which seq is reported).
 *
 * <h2>Why checkpoint signatures suffice</h2>
 *
 * In {@link SignatureMode#checkpoints(int) CHECKPOINTS(n)} mode the hash and link of every event are checked, but
 * signatures only on seqs that are multiples of {@code n} and on the last event fed before {@link #result()}. This is
 * the argument transparency logs (Certificate Transparency's signed tree heads) rely on: event {@code k}'s hash is
 * SHA-256 over canonical bytes that include {@code prev_hash}, the hash of event {@code k-1}, which in turn covers
 * event {@code k-2}, and so on back to seq 1. Once every link and every hash have been checked, the hash of event
 * {@code k} is a commitment to the exact content of events {@code 1..k}: changing any earlier event (content, seq, key
 * id, actor, ...) changes its hash, and so either breaks a link or forces every later hash to change, which under
 * SHA-256's second-preimage resistance means the checkpoint's hash changes too. A valid signature on event {@code k}'s
 * hash therefore authenticates every event up to {@code k}, with one Ed25519 verification (~80 us) instead of
 * {@code k}; the cost per event falls to one SHA-256 over ~600 bytes plus the Avro encoding.
 *
 * <p>What the mode gives up: (1) the {@code signature} field of an event between checkpoints is not examined (it is not
 * part of the hash, so a damaged signature there does not mean damaged content; {@link SignatureMode#ALL} reports it);
 * (2) when a checkpoint signature fails, the forgery lies somewhere after the previous verified checkpoint, and the
 * reported seq is the checkpoint's, not necessarily the first forged event's (the message names the range); (3) an
 * event between checkpoints whose key id is known but which was signed by the wrong key is not detected, since its key
 * id is still authenticated by the next checkpoint. The last event fed is always checked, so a rewritten tail after the
 * last checkpoint cannot slip through.
 *
 * <h2>Key rotation and compromised keys</h2>
 *
 * A {@code SigningKeyRotated} event (docs/architecture.md §4) must be signed by the key it names as
 * {@code previous_key_id}, which must be the key the chain rotated to before, if it did ({@link Problem#BAD_ROTATION});
 * its new public key must hash to its {@code new_key_id} ({@link Problem#BAD_ROTATION}); its signature is always
 * checked, whatever the mode, since it vouches for the new key. From then on the new key verifies the space's events
 * even when the key ring lacks it, and an event signed by any other key is {@link Problem#WRONG_KEY}. Before a chain's
 * first rotation any key of the ring may sign (chains written before rotations existed). A
 * {@code SigningKeyCompromised} event marks a key's events after a seq as suspect: the chain still verifies and the
 * verdict lists them ({@link VerificationResult#suspects()}), including those signed before the mark. The verifier
 * remembers which key signed which seqs as runs ({@link ChainKeyState}), so its memory grows with the number of key
 * changes, not with the chain.
 *
 * <p>Not thread-safe: one verifier per space per reading thread.
 */
public final class ChainVerifier {

    private static final String ROTATED = "SigningKeyRotated";
    private static final String COMPROMISED = "SigningKeyCompromised";

    private final String space;
    private final KeyRing keys;
    private final SignatureMode mode;

    private long events;
    private long lastSeq;
    private byte[] lastHash = Canonical.GENESIS;
    private long lastSignedSeq;
    // checkpoint mode: the signature of the last good event when it has not been checked yet (message = lastHash)
    private byte[] pendingSignature;
    private String pendingKeyId;
    private VerificationResult failure;
    // rotations and compromise marks seen so far, and the open run of seqs signed by one key
    private ChainKeyState keyState = ChainKeyState.EMPTY;
    private KeyRing learnedKeys = KeyRing.of();
    private String runKey;
    private long runFirst;
    private long runLast;

    private Schema fieldsOf;
    private int spacePos;
    private int seqPos;
    private int prevHashPos;
    private int hashPos;
    private int signaturePos;
    private int keyIdPos;
    private int payloadPos;

    /**
     * @param space the space whose chain is fed (events of another space are reported as {@link Problem#WRONG_SPACE})
     * @param keys public keys by key id
     * @param mode which signatures to check
     */
    public ChainVerifier(String space, KeyRing keys, SignatureMode mode) {
        this.space = Objects.requireNonNull(space, "space");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /**
     * A verifier that continues after a head an earlier verification of the same log established ({@code events}
     * records up to {@code seq} with {@code hash}, its signature checked): the next event fed must be {@code seq + 1}
     * and link to {@code hash}. Whoever resumes vouches that the records before the resumed position are the ones that
     * were verified (an append-only log: see {@code KafkaChainReader.headAfter}).
     */
    public static ChainVerifier resuming(
            String space, KeyRing keys, SignatureMode mode, long events, long seq, byte[] hash) {
        return resuming(space, keys, mode, events, seq, hash, ChainKeyState.EMPTY);
    }

    /** As above, continuing with the signing keys the earlier verification learned ({@link ChainHead#keys()}). */
    public static ChainVerifier resuming(
            String space,
            KeyRing keys,
            SignatureMode mode,
            long events,
            long seq,
            byte[] hash,
            ChainKeyState keyState) {
        ChainVerifier verifier = new ChainVerifier(space, keys, mode);
        verifier.keyState = Objects.requireNonNull(keyState, "keyState");
        verifier.learnedKeys = KeyRing.of(keyState.learned().values().stream()
                .map(java.util.HexFormat.of()::parseHex)
                .toArray(byte[][]::new));
        verifier.events = events;
        verifier.lastSeq = seq;
        verifier.lastSignedSeq = seq;
        verifier.lastHash = hash.clone();
        return verifier;
    }

    /** The space this verifier checks. */
    public String space() {
        return space;
    }

    /** The last seq verified so far (0 before the first event). */
    public long lastSeq() {
        return lastSeq;
    }

    /** Whether a problem has been found; further events are then ignored. */
    public boolean isBroken() {
        return failure != null;
    }

    /**
     * Verifies the next event of the chain.
     *
     * @return true while the chain is intact, false once a problem has been found (at this or an earlier event)
     */
    public boolean accept(IndexedRecord event) {
        if (failure != null) {
            return false;
        }
        events++;
        long expected = lastSeq + 1;
        if (!bindFields(event.getSchema())) {
            return fail(
                    expected,
                    Problem.UNDECODABLE,
                    "record after seq " + lastSeq + " is not a chain event (schema "
                            + event.getSchema().getFullName() + ")");
        }
        String eventSpace;
        long seq;
        byte[] prevHash;
        byte[] hash;
        byte[] signature;
        String keyId;
        try {
            eventSpace = String.valueOf(event.get(spacePos));
            seq = (Long) event.get(seqPos);
            prevHash = bytes(event.get(prevHashPos));
            hash = bytes(event.get(hashPos));
            signature = bytes(event.get(signaturePos));
            keyId = String.valueOf(event.get(keyIdPos));
        } catch (ClassCastException | NullPointerException e) {
            return fail(
                    expected,
                    Problem.UNDECODABLE,
                    "record after seq " + lastSeq + " does not have the chain fields' types: " + e.getMessage());
        }

        if (!space.equals(eventSpace)) {
            return fail(
                    expected,
                    Problem.WRONG_SPACE,
                    "event seq " + seq + " claims space '" + eventSpace + "' on the chain of '" + space + "'");
        }
        if (seq < expected) {
            return fail(
                    expected,
                    Problem.DUPLICATE,
                    seq == lastSeq
                            ? "seq " + seq + " appears again (expected " + expected + ")"
                            : "seq " + seq + " found after seq " + lastSeq + " (expected " + expected + ")");
        }
        if (seq > expected) {
            return fail(
                    expected,
                    Problem.GAP,
                    "seq " + seq + " found where " + expected + " was expected (" + (seq - expected) + " missing)");
        }
        if (!MessageDigest.isEqual(prevHash, lastHash)) {
            return fail(
                    seq,
                    Problem.BROKEN_LINK,
                    "prev_hash " + shortHex(prevHash) + " of seq " + seq + " is not the hash " + shortHex(lastHash)
                            + (seq == 1 ? " of the genesis" : " of seq " + lastSeq));
        }
        byte[] recomputed = Canonical.hash(event);
        if (!MessageDigest.isEqual(recomputed, hash)) {
            return fail(
                    seq,
                    Problem.BAD_HASH,
                    "stored hash " + shortHex(hash) + " of seq " + seq + " differs from the recomputed "
                            + shortHex(recomputed) + ": the event's content was changed");
        }
        if (!keys.contains(keyId) && !learnedKeys.contains(keyId)) {
            return fail(
                    seq,
                    Problem.UNKNOWN_KEY,
                    "seq " + seq + " is signed by key id '" + keyId + "', which is not in the key ring");
        }
        String current = keyState.currentKeyId();
        if (current != null && !current.equals(keyId)) {
            return fail(
                    seq,
                    Problem.WRONG_KEY,
                    "seq " + seq + " is signed by key '" + keyId + "' but the chain's signing key is '" + current
                            + "' since its last rotation");
        }
        IndexedRecord payload = payloadPos >= 0 && event.get(payloadPos) instanceof IndexedRecord r ? r : null;
        String payloadType = payload == null ? "" : payload.getSchema().getName();
        String rotatedTo = null;
        byte[] rotatedKey = null;
        if (ROTATED.equals(payloadType)) {
            String previous = String.valueOf(field(payload, "previous_key_id"));
            rotatedTo = String.valueOf(field(payload, "new_key_id"));
            rotatedKey = field(payload, "new_public_key") instanceof ByteBuffer b ? bytes(b) : new byte[0];
            if (!previous.equals(keyId)) {
                return fail(
                        seq,
                        Problem.BAD_ROTATION,
                        "key rotation at seq " + seq + " replaces key '" + previous + "' but is signed by key '" + keyId
                                + "'");
            }
            if (rotatedKey.length != 32 || !ChainKeys.keyIdOf(rotatedKey).equals(rotatedTo)) {
                return fail(
                        seq,
                        Problem.BAD_ROTATION,
                        "key rotation at seq " + seq + " names key id '" + rotatedTo
                                + "' for a public key whose id is not that");
            }
        }
        if (mode.isCheckpoint(seq) || rotatedTo != null) {
            if (!verifySignature(keyId, hash, signature)) {
                return fail(seq, Problem.BAD_SIGNATURE, badSignatureMessage(seq, keyId));
            }
            lastSignedSeq = seq;
            pendingSignature = null;
            pendingKeyId = null;
        } else {
            pendingSignature = signature;
            pendingKeyId = keyId;
        }
        lastSeq = seq;
        lastHash = hash;
        signedBy(keyId, seq);
        if (rotatedTo != null) {
            keyState = keyState.rotated(rotatedTo, rotatedKey);
            learnedKeys = KeyRing.of(keyState.learned().values().stream()
                    .map(java.util.HexFormat.of()::parseHex)
                    .toArray(byte[][]::new));
        } else if (COMPROMISED.equals(payloadType) && field(payload, "from_seq") instanceof Long from) {
            keyState = keyState.compromised(String.valueOf(field(payload, "key_id")), from, seq);
        }
        return true;
    }

    /** The signing keys learned so far: rotations, compromise marks and which key signed which seqs. */
    public ChainKeyState keyState() {
        return runKey == null ? keyState : keyState.withRun(runKey, runFirst, runLast);
    }

    private void signedBy(String keyId, long seq) {
        if (keyId.equals(runKey) && runLast == seq - 1) {
            runLast = seq;
            return;
        }
        keyState = keyState();
        runKey = keyId;
        runFirst = seq;
        runLast = seq;
    }

    private boolean verifySignature(String keyId, byte[] hash, byte[] signature) {
        return (keys.contains(keyId) ? keys : learnedKeys).verify(keyId, hash, signature);
    }

    private static Object field(IndexedRecord record, String name) {
        Schema.Field field = record.getSchema().getField(name);
        return field == null ? null : record.get(field.pos());
    }

    /**
     * Records that the next record of this space could not be decoded; it is reported as {@link Problem#UNDECODABLE} at
     * the expected seq (last good seq + 1).
     *
     * @return false (the chain is broken)
     */
    public boolean acceptUndecodable(String reason) {
        if (failure != null) {
            return false;
        }
        events++;
        return fail(lastSeq + 1, Problem.UNDECODABLE, "record after seq " + lastSeq + " cannot be decoded: " + reason);
    }

    /**
     * The verdict so far. In checkpoint mode this first checks the signature of the last event fed, if it was not a
     * checkpoint, so the verdict always rests on a verified signature of the head. More events may be fed afterwards.
     */
    public VerificationResult result() {
        if (failure == null && pendingSignature != null) {
            if (!verifySignature(pendingKeyId, lastHash, pendingSignature)) {
                failure = VerificationResult.broken(
                        events, lastSeq, Problem.BAD_SIGNATURE, badSignatureMessage(lastSeq, pendingKeyId));
            } else {
                lastSignedSeq = lastSeq;
            }
            pendingSignature = null;
            pendingKeyId = null;
        }
        java.util.List<SuspectRange> suspects = keyState().suspects();
        if (failure != null) {
            return failure.withSuspects(suspects);
        }
        long suspect = suspects.stream().mapToLong(SuspectRange::count).sum();
        return VerificationResult.intact(
                        events,
                        lastSeq == 0
                                ? "no events"
                                : "chain intact up to seq " + lastSeq + ", head hash " + Canonical.hex(lastHash)
                                        + (suspect == 0
                                                ? ""
                                                : "; " + suspect + " suspect event(s) signed by a compromised key"))
                .withSuspects(suspects);
    }

    /** The verdict ({@link #result()}) with the last verified seq and its hash. */
    public ChainHead head() {
        VerificationResult result = result();
        return new ChainHead(result, lastSeq, lastHash, keyState());
    }

    private String badSignatureMessage(long seq, String keyId) {
        String message = "signature of seq " + seq + " does not verify with key '" + keyId + "'";
        if (!mode.checksAll() && seq - lastSignedSeq > 1) {
            message += "; checkpoint mode: events " + (lastSignedSeq + 1) + ".." + seq
                    + " are not authenticated (the forgery may start anywhere in that range)";
        }
        return message;
    }

    private boolean fail(long seq, Problem problem, String message) {
        failure = VerificationResult.broken(events, seq, problem, message);
        return false;
    }

    private boolean bindFields(Schema schema) {
        if (schema == fieldsOf) {
            return true;
        }
        if (schema.getType() != Schema.Type.RECORD) {
            return false;
        }
        Schema.Field[] fields = {
            schema.getField("space"),
            schema.getField("seq"),
            schema.getField("prev_hash"),
            schema.getField("hash"),
            schema.getField("signature"),
            schema.getField("key_id")
        };
        for (Schema.Field field : fields) {
            if (field == null) {
                return false;
            }
        }
        spacePos = fields[0].pos();
        seqPos = fields[1].pos();
        prevHashPos = fields[2].pos();
        hashPos = fields[3].pos();
        signaturePos = fields[4].pos();
        keyIdPos = fields[5].pos();
        Schema.Field payload = schema.getField("payload");
        payloadPos = payload == null ? -1 : payload.pos();
        fieldsOf = schema;
        return true;
    }

    private static byte[] bytes(Object value) {
        return Canonical.toArray((ByteBuffer) value);
    }

    private static String shortHex(byte[] hash) {
        String hex = Canonical.hex(hash);
        return hex.length() > 16 ? hex.substring(0, 16) + "..." : hex;
    }
}
