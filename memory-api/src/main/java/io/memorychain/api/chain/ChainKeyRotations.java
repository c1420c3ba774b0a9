package io.memorychain.api.chain;

import io.memorychain.api.backend.MemoryBackend;
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

/**
 * Rotating a space's chain signing key and marking a key compromised (docs/architecture.md §4), transport-neutral.
 * Both are requests through the sequencer, which appends the event (admins only: its rule) and answers the outcome;
 * the answer is what the outcome says happened (the event's seq and the key it names), once the local views applied
 * it. A rotation without a key id makes a new key in the service's key directory first; the private key never leaves
 * it.
 */
@Singleton
public class ChainKeyRotations {

    private final MemoryBackend backend;
    private final WriteExecutor writes;

    public ChainKeyRotations(MemoryBackend backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** Rotates the space to {@code keyId}, or to a new key when it is null. */
    public ChainKeyChange rotate(WriteContext ctx, String keyId, String reason) {
        if (keyId != null && !SigningKeys.isKeyId(keyId)) {
            throw new ApiException(ErrorCodes.INVALID_ARGUMENT, "key_id must be 16 lower-case hex digits");
        }
        String to = keyId;
        if (to == null) {
            if (ctx.actor().getType() != ActorType.ADMIN) {
                // no key is made for a caller the sequencer will refuse
                throw new ApiException(ErrorCodes.FORBIDDEN, "only admins manage the chain's signing keys");
            }
            to = backend.signingKeys().orElseThrow(() -> new ApiException(ErrorCodes.INVALID_STATE,
                    "this service holds no signing keys: name a provisioned key_id")).create().keyId();
        }
        MemoryOutcome outcome = writes.apply(ctx, new RotateSigningKey(to, reason));
        // a retry with the same Idempotency-Key answers the original rotation's key, not the one just made
        return new ChainKeyChange(ctx.space(), outcome.getSeq(), ChainKeyChange.ROTATED,
                outcome.getMemoryId() == null ? to : outcome.getMemoryId(), null);
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
