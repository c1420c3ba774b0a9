package io.memorychain.domain;

import io.memorychain.avro.AccessGrantRequested;
import io.memorychain.avro.AccessGranted;
import io.memorychain.avro.AccessRevoked;
import io.memorychain.avro.GrantedContentRead;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Mechanic's Exception grants (docs/architecture.md §13): {@code evolve(grant, event)} and the one rule of when a grant
 * lets its grantee read content. Used by the sequencer (to decide consent, revocation and recorded reads at the
 * decision time) and by the projection and the read side (the grants view; the read side checks the rule against its
 * clock). Pure: expiry is never an event, it is {@code now >= expires_at} for whoever passes {@code now}.
 */
public final class Grants {

    /** The longest a grant may last once consented. */
    public static final Duration MAX_DURATION = Duration.ofHours(24);
    /** Most memory ids a grant's scope, or one recorded read, names. */
    public static final int MAX_IDS = 1_000;

    private Grants() {}

    /** Whether the payload is one of the grant events (they change no memory). */
    public static boolean isGrantEvent(Object payload) {
        return payload instanceof AccessGrantRequested
                || payload instanceof AccessGranted
                || payload instanceof AccessRevoked
                || payload instanceof GrantedContentRead;
    }

    /** The grant id a grant event is about, or null for other events. */
    public static String grantIdOf(Object payload) {
        if (payload instanceof AccessGrantRequested r) {
            return r.getGrantId();
        } else if (payload instanceof AccessGranted g) {
            return g.getGrantId();
        } else if (payload instanceof AccessRevoked r) {
            return r.getGrantId();
        } else if (payload instanceof GrantedContentRead r) {
            return r.getGrantId();
        }
        return null;
    }

    /**
     * @param current looks up the current snapshot of a grant of the event's space (null when unknown)
     * @return the grant after the event, or null when the event is not about a grant
     */
    public static Grant evolve(MemoryEvent event, Function<String, Grant> current) {
        Object payload = event.getPayload();
        if (payload instanceof AccessGrantRequested r) {
            return Grant.newBuilder()
                    .setId(r.getGrantId())
                    .setSpace(event.getSpace())
                    .setStatus(GrantStatus.PENDING)
                    .setGrantee(r.getGrantee())
                    .setPurpose(r.getPurpose())
                    .setDurationSeconds(r.getDurationSeconds())
                    .setMemoryIds(List.copyOf(r.getMemoryIds()))
                    .setRequestedBy(event.getActor())
                    .setRequestedSeq(event.getSeq())
                    .setRequestedAt(event.getOccurredAt())
                    .setConsentedBy(null)
                    .setConsentedAt(null)
                    .setExpiresAt(null)
                    .setRevokedBy(null)
                    .setRevokedAt(null)
                    .setRevokeReason(null)
                    .setReads(0)
                    .setLastReadAt(null)
                    .build();
        }
        String id = grantIdOf(payload);
        if (id == null) {
            return null;
        }
        Grant before = current.apply(id);
        if (before == null) {
            throw new IllegalStateException(
                    "Event " + event.getSpace() + "#" + event.getSeq() + " names unknown grant " + id);
        }
        Grant.Builder after = Grant.newBuilder(before);
        if (payload instanceof AccessGranted g) {
            after.setStatus(GrantStatus.ACTIVE)
                    .setConsentedBy(event.getActor())
                    .setConsentedAt(event.getOccurredAt())
                    .setExpiresAt(g.getExpiresAt());
        } else if (payload instanceof AccessRevoked r) {
            after.setStatus(GrantStatus.REVOKED)
                    .setRevokedBy(event.getActor())
                    .setRevokedAt(event.getOccurredAt())
                    .setRevokeReason(r.getReason());
        } else {
            after.setReads(before.getReads() + 1).setLastReadAt(event.getOccurredAt());
        }
        return after.build();
    }

    /** Consented, not revoked and not expired at {@code now}. */
    public static boolean isUsable(Grant grant, Instant now) {
        return grant.getStatus() == GrantStatus.ACTIVE
                && grant.getExpiresAt() != null
                && now.isBefore(grant.getExpiresAt());
    }

    /** Expired: consented, not revoked, and {@code now} is at or after its expiry. */
    public static boolean isExpired(Grant grant, Instant now) {
        return grant.getStatus() == GrantStatus.ACTIVE
                && grant.getExpiresAt() != null
                && !now.isBefore(grant.getExpiresAt());
    }

    /** Whether the grant covers the whole space (not only some memories). */
    public static boolean coversSpace(Grant grant) {
        return grant.getMemoryIds().isEmpty();
    }

    /** Whether the grant's scope includes every one of the memories. */
    public static boolean covers(Grant grant, Collection<String> memoryIds) {
        return coversSpace(grant) || grant.getMemoryIds().containsAll(memoryIds);
    }

    /**
     * The one rule of a content read: the grant is the reader's (its grantee), usable at {@code now}, and covers the
     * memories.
     */
    public static boolean allows(Grant grant, String readerId, Instant now, Collection<String> memoryIds) {
        return grant.getGrantee().equals(readerId) && isUsable(grant, now) && covers(grant, memoryIds);
    }
}
