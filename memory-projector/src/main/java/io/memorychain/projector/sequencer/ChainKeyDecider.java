package io.memorychain.projector.sequencer;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.MarkKeyCompromised;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.RotateSigningKey;
import io.memorychain.avro.SigningKeyCompromised;
import io.memorychain.avro.SigningKeyRotated;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.decide.Decision;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.SigningKeys;
import io.memorychain.projector.support.ChainHead;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The chain's own operations (docs/architecture.md §4): rotating a space's signing key and marking a key compromised.
 * They depend on the sequencer's state (the space's current key, the private keys it holds), not on the write model, so
 * the sequencer decides them here instead of in the domain's decider.
 */
final class ChainKeyDecider {

    private final SigningKeys keys;

    ChainKeyDecider(SigningKeys keys) {
        this.keys = keys;
    }

    static boolean handles(MemoryRequest request) {
        return request.getOp() instanceof RotateSigningKey || request.getOp() instanceof MarkKeyCompromised;
    }

    /** The space's signing key now: the last rotation's, or the default key's. */
    String currentKey(ChainHead head) {
        return head.signingKeyId() != null
                ? head.signingKeyId()
                : keys.defaultKey().keyId();
    }

    Decision decide(MemoryRequest request, ChainHead head) {
        if (isBlank(request.getRequestId()) || isBlank(request.getActor().getId())) {
            return new Decision.Reject(RejectionCode.INVALID_ARGUMENT, "request_id and actor id are required");
        }
        if (request.getActor().getType() != ActorType.ADMIN) {
            return new Decision.Reject(RejectionCode.FORBIDDEN, "only admins manage the chain's signing keys");
        }
        if (head.seq() == 0) {
            return new Decision.Reject(
                    RejectionCode.NOT_FOUND,
                    "space " + request.getSpace() + " has no chain yet: there is no signing key to rotate or mark");
        }
        String current = currentKey(head);
        if (request.getOp() instanceof RotateSigningKey rotate) {
            String to = rotate.getNewKeyId();
            if (!SigningKeys.isKeyId(to)) {
                return new Decision.Reject(
                        RejectionCode.INVALID_ARGUMENT, "new_key_id must be 16 lower-case hex digits");
            }
            if (to.equals(current)) {
                return new Decision.Reject(RejectionCode.INVALID_STATE, "key " + to + " already signs this space");
            }
            if (head.retiredKeyIds().contains(to)) {
                // it may have been marked compromised since: a space never goes back to a key it left
                return new Decision.Reject(
                        RejectionCode.INVALID_STATE,
                        "key " + to + " signed this space before: rotate to a key the space never used");
            }
            Optional<ChainKeys> key = keys.find(to);
            if (key.isEmpty()) {
                return new Decision.Reject(
                        RejectionCode.NOT_FOUND,
                        "the sequencer holds no private key " + to + ": provision chain-signing-" + to
                                + ".key in its key directory");
            }
            // the outcome names the new key (as memory_id): a retry with the same request id answers the same key
            return new Decision.Accept(
                    new SigningKeyRotated(current, to, ByteBuffer.wrap(key.get().publicKeyBytes()), rotate.getReason()),
                    to,
                    0);
        }
        MarkKeyCompromised mark = (MarkKeyCompromised) request.getOp();
        if (!SigningKeys.isKeyId(mark.getKeyId())) {
            return new Decision.Reject(RejectionCode.INVALID_ARGUMENT, "key_id must be 16 lower-case hex digits");
        }
        if (mark.getFromSeq() < 0 || mark.getFromSeq() > head.seq()) {
            return new Decision.Reject(
                    RejectionCode.INVALID_ARGUMENT, "from_seq must be between 0 and the head seq " + head.seq());
        }
        if (isBlank(mark.getReason())) {
            return new Decision.Reject(RejectionCode.INVALID_ARGUMENT, "a reason is required");
        }
        if (mark.getKeyId().equals(current)) {
            return new Decision.Reject(
                    RejectionCode.INVALID_STATE,
                    "key " + current + " signs this space now: rotate the space's key first, then mark it compromised");
        }
        if (!head.retiredKeyIds().contains(mark.getKeyId())) {
            return new Decision.Reject(
                    RejectionCode.NOT_FOUND,
                    "key " + mark.getKeyId() + " never signed this space's chain (its keys: " + signedBy(head) + ")");
        }
        return new Decision.Accept(
                new SigningKeyCompromised(mark.getKeyId(), mark.getFromSeq(), mark.getReason()), mark.getKeyId(), 0);
    }

    private String signedBy(ChainHead head) {
        java.util.List<String> all = new java.util.ArrayList<>(head.retiredKeyIds());
        all.add(currentKey(head));
        return String.join(", ", all);
    }

    private static boolean isBlank(CharSequence s) {
        return s == null || s.toString().isBlank();
    }
}
