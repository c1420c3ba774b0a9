package io.memorychain.api.chain;

import io.memorychain.api.backend.ChainSigning;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MarkKeyCompromised;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.RotateSigningKey;
import io.memorychain.events.chain.SigningKeys;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Rotating a space's chain signing key and marking a key compromised (docs/architecture.md §4), transport-neutral. Both
 * are requests through the sequencer, which appends the event (admins only: its rule) and answers the outcome; the
 * answer is what the outcome says happened (the event's seq and the key it names), once the local views applied it. A
 * rotation without a key id makes a new key in the service's key directory first (the private key never leaves it), and
 * deletes it again when the sequencer refuses the rotation or a retry answers an earlier one.
 */
@Singleton
public class ChainKeyRotations {

    /** Failures after which the rotation may still have been applied: its new key is kept. */
    private static final Set<String> UNDECIDED =
            Set.of(ErrorCodes.TIMEOUT, ErrorCodes.UNAVAILABLE, ErrorCodes.INTERNAL, ErrorCodes.REBALANCING);

    private final ChainSigning backend;
    private final WriteExecutor writes;

    public ChainKeyRotations(ChainSigning backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** Rotates the space to {@code keyId}, or to a new key when it is null. */
    public ChainKeyChange rotate(WriteContext ctx, String keyId, String reason) {
        if (keyId != null && !SigningKeys.isKeyId(keyId)) {
            throw new ApiException(ErrorCodes.INVALID_ARGUMENT, "key_id must be 16 lower-case hex digits");
        }
        if (keyId != null) {
            return rotated(ctx, writes.apply(ctx, new RotateSigningKey(keyId, reason)), keyId);
        }
        if (ctx.actor().getType() != ActorType.ADMIN) {
            // no key is made for a caller the sequencer will refuse
            throw new ApiException(ErrorCodes.FORBIDDEN, "only admins manage the chain's signing keys");
        }
        SigningKeys keys = backend.signingKeys()
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.INVALID_STATE, "this service holds no signing keys: name a provisioned key_id"));
        String made = keys.create().keyId();
        MemoryOutcome outcome;
        try {
            outcome = writes.apply(ctx, new RotateSigningKey(made, reason));
        } catch (ApiException e) {
            if (!UNDECIDED.contains(e.code())) {
                keys.discard(made); // refused: nothing signs with it
            }
            throw e;
        }
        ChainKeyChange change = rotated(ctx, outcome, made);
        if (!change.keyId().equals(made)) {
            keys.discard(made); // a retry answered the original rotation, to another key
        }
        return change;
    }

    /** The answer: a retry with the same Idempotency-Key names the original rotation's key, which its outcome holds. */
    private static ChainKeyChange rotated(WriteContext ctx, MemoryOutcome outcome, String asked) {
        return new ChainKeyChange(
                ctx.space(),
                outcome.getSeq(),
                ChainKeyChange.ROTATED,
                outcome.getMemoryId() == null ? asked : outcome.getMemoryId(),
                null);
    }

    /** Marks {@code keyId} compromised on the space's chain after {@code fromSeq}. */
    public ChainKeyChange markCompromised(WriteContext ctx, String keyId, Long fromSeq, String reason) {
        if (!SigningKeys.isKeyId(keyId)) {
            throw new ApiException(ErrorCodes.INVALID_ARGUMENT, "key_id must be 16 lower-case hex digits");
        }
        if (fromSeq == null || fromSeq < 0) {
            throw new ApiException(ErrorCodes.INVALID_ARGUMENT, "from_seq (>= 0) is required");
        }
        if (reason == null || reason.isBlank()) {
            throw new ApiException(ErrorCodes.INVALID_ARGUMENT, "a reason is required");
        }
        MemoryOutcome outcome = writes.apply(ctx, new MarkKeyCompromised(keyId, fromSeq, reason));
        return new ChainKeyChange(ctx.space(), outcome.getSeq(), ChainKeyChange.COMPROMISED, keyId, fromSeq);
    }
}
