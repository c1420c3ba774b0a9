package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_RESOLVED;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.decide.Decider.checkLength;
import static io.memorychain.domain.decide.Decider.isBlank;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.AccessGrantRequested;
import io.memorychain.avro.AccessGranted;
import io.memorychain.avro.AccessRevoked;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsentGrant;
import io.memorychain.avro.GrantedContentRead;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.RecordGrantRead;
import io.memorychain.avro.RequestGrant;
import io.memorychain.avro.RevokeGrant;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantStatus;
import io.memorychain.domain.Grants;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Rules;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of Mechanic's Exception grants (docs/architecture.md §13): an admin asks to read content for a purpose and
 * a bounded time; the space's agent or a user of it consents (never the grantee); the owner or the grantee revokes;
 * each content read under the grant is recorded before it is answered, and only while the grant is usable at the
 * decision time. Expiry needs no event: a grant is usable before its {@code expires_at} only.
 */
final class GrantDecider {

    /** Who may consent to, or revoke, a grant for the space: its agent or a user of it. */
    static final Set<ActorType> OWNERS = EnumSet.of(ActorType.AGENT, ActorType.USER);

    Decision request(MemoryRequest request, long seq, RequestGrant op) {
        if (request.getActor().getType() != ActorType.ADMIN) {
            return reject(FORBIDDEN, "grants are requested by admins (agents and users read their content anyway)");
        }
        if (isBlank(op.getGrantee())) {
            return reject(INVALID_ARGUMENT, "grantee is required");
        }
        if (isBlank(op.getPurpose())) {
            return reject(INVALID_ARGUMENT, "purpose is required: say why the content must be read");
        }
        Decision invalid = firstNonNull(
                checkLength("grantee", op.getGrantee(), Rules.MAX_SHORT_TEXT),
                checkLength("purpose", op.getPurpose(), Rules.MAX_REASON));
        if (invalid != null) {
            return invalid;
        }
        long max = Grants.MAX_DURATION.toSeconds();
        if (op.getDurationSeconds() < 1 || op.getDurationSeconds() > max) {
            return reject(
                    INVALID_ARGUMENT,
                    "duration_seconds must be 1 to " + max + " (24 h), was " + op.getDurationSeconds());
        }
        List<String> ids = List.copyOf(new LinkedHashSet<>(op.getMemoryIds()));
        if (ids.size() > Grants.MAX_IDS) {
            return reject(INVALID_ARGUMENT, "a grant names at most " + Grants.MAX_IDS + " memories");
        }
        for (String id : ids) {
            if (!MemoryIds.belongsTo(id, request.getSpace())) {
                return reject(
                        INVALID_ARGUMENT, "memory_ids: " + id + " is not a memory id of space " + request.getSpace());
            }
        }
        String id = MemoryIds.grant(request.getSpace(), seq);
        return new Decision.Accept(
                new AccessGrantRequested(id, op.getGrantee(), op.getPurpose(), op.getDurationSeconds(), ids), id, 1);
    }

    Decision consent(MemoryRequest request, WriteModel model, Instant now, ConsentGrant op) {
        Actor actor = request.getActor();
        if (!OWNERS.contains(actor.getType())) {
            return reject(FORBIDDEN, "a grant is consented by the space's agent or its user");
        }
        Grant grant = find(request, model, op.getGrantId());
        if (grant == null) {
            return notFound(request, op.getGrantId());
        }
        if (grant.getGrantee().equals(actor.getId())) {
            return reject(FORBIDDEN, "the grantee cannot consent to its own grant");
        }
        if (grant.getStatus() != GrantStatus.PENDING) {
            return reject(ALREADY_RESOLVED, "grant " + grant.getId() + " is already " + status(grant, now));
        }
        Instant expiresAt = now.plusSeconds(grant.getDurationSeconds());
        return new Decision.Accept(new AccessGranted(grant.getId(), expiresAt), grant.getId(), 2);
    }

    Decision revoke(MemoryRequest request, WriteModel model, Instant now, RevokeGrant op) {
        Actor actor = request.getActor();
        Grant grant = find(request, model, op.getGrantId());
        if (grant == null) {
            return notFound(request, op.getGrantId());
        }
        boolean grantee =
                actor.getType() == ActorType.ADMIN && grant.getGrantee().equals(actor.getId());
        if (!OWNERS.contains(actor.getType()) && !grantee) {
            return reject(FORBIDDEN, "a grant is revoked by the space's agent or user, or by its grantee");
        }
        Decision invalid = checkLength("reason", op.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        if (grant.getStatus() == GrantStatus.REVOKED) {
            return reject(ALREADY_RESOLVED, "grant " + grant.getId() + " is already revoked");
        }
        if (Grants.isExpired(grant, now)) {
            return reject(INVALID_STATE, "grant " + grant.getId() + " expired at " + grant.getExpiresAt());
        }
        return new Decision.Accept(new AccessRevoked(grant.getId(), op.getReason()), grant.getId(), 3);
    }

    Decision read(MemoryRequest request, WriteModel model, Instant now, RecordGrantRead op) {
        Actor actor = request.getActor();
        Grant grant = find(request, model, op.getGrantId());
        if (grant == null) {
            return notFound(request, op.getGrantId());
        }
        if (actor.getType() != ActorType.ADMIN || !grant.getGrantee().equals(actor.getId())) {
            return reject(FORBIDDEN, "only the grantee reads under grant " + grant.getId());
        }
        if (!Grants.isUsable(grant, now)) {
            return reject(INVALID_STATE, "grant " + grant.getId() + " is " + status(grant, now));
        }
        if (isBlank(op.getOperation())) {
            return reject(INVALID_ARGUMENT, "operation is required");
        }
        Decision invalid = firstNonNull(
                checkLength("operation", op.getOperation(), Rules.MAX_SHORT_TEXT),
                checkLength("detail", op.getDetail(), Rules.MAX_REASON));
        if (invalid != null) {
            return invalid;
        }
        if (op.getMemoryIds().size() > Grants.MAX_IDS) {
            return reject(INVALID_ARGUMENT, "a read records at most " + Grants.MAX_IDS + " memory ids");
        }
        if (!Grants.covers(grant, op.getMemoryIds())) {
            return reject(FORBIDDEN, "grant " + grant.getId() + " does not cover every memory read");
        }
        return new Decision.Accept(
                new GrantedContentRead(
                        grant.getId(),
                        op.getOperation(),
                        List.copyOf(op.getMemoryIds()),
                        Math.max(op.getCount(), op.getMemoryIds().size()),
                        op.getDetail()),
                grant.getId(),
                (int) Math.min(Integer.MAX_VALUE, grant.getReads() + 1));
    }

    /** pending, active until ..., expired at ..., or revoked. */
    static String status(Grant grant, Instant now) {
        if (Grants.isExpired(grant, now)) {
            return "expired (at " + grant.getExpiresAt() + ")";
        }
        return switch (grant.getStatus()) {
            case PENDING -> "pending (not consented)";
            case ACTIVE -> "active until " + grant.getExpiresAt();
            case REVOKED -> "revoked";
        };
    }

    private static Grant find(MemoryRequest request, WriteModel model, String id) {
        return isBlank(id) ? null : model.grant(request.getSpace(), id);
    }

    private static Decision notFound(MemoryRequest request, String id) {
        return reject(NOT_FOUND, "no grant " + id + " in space " + request.getSpace());
    }

    private static Decision firstNonNull(Decision... decisions) {
        for (Decision d : decisions) {
            if (d != null) {
                return d;
            }
        }
        return null;
    }
}
