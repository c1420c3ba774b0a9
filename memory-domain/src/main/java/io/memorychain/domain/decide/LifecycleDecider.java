package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.CONSTITUTIONAL;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.RejectionCode.VERSION_CONFLICT;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.EraseMemory;
import io.memorychain.avro.ExpireMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.domain.Purges;
import io.memorychain.domain.Rules;
import io.memorychain.domain.category.CategoryPolicy;
import java.time.Instant;
import java.util.Locale;

/**
 * The decay and TTL lifecycle rules (docs/architecture.md §7, §12): {@code TransitionDecay} and {@code ExpireMemory}
 * and {@code PurgeMemory}, asked for by the lifecycle worker (or an admin). Restoring is {@code RestoreMemory}.
 */
final class LifecycleDecider {

    private final CategoryPolicy categories;

    LifecycleDecider(CategoryPolicy categories) {
        this.categories = categories;
    }

    Decision transition(MemoryRequest request, WriteModel model, TransitionDecay t) {
        Decision refused = lifecycleActor(request, "decay transitions");
        return refused != null ? refused : transitionApproved(request, model, t);
    }

    /** {@link #transition} without the actor rule: an archival approved in a reflection (the user decided it). */
    Decision transitionApproved(MemoryRequest request, WriteModel model, TransitionDecay t) {
        if (!Double.isFinite(t.getScore()) || t.getScore() < 0) {
            return reject(INVALID_ARGUMENT, "score must be a finite number >= 0, was " + t.getScore());
        }
        Lookup found = lookup(request, model, t.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        Decision unfit = decayable(m, "decay");
        if (unfit != null) {
            return unfit;
        }
        if (m.getState() != MemoryState.ACTIVE) {
            return reject(
                    INVALID_STATE,
                    "memory " + m.getId() + " is " + name(m.getState())
                            + "; only active memories change decay status (restore it first)");
        }
        if (m.getDecayStatus() == t.getTo()) {
            return reject(INVALID_STATE, "memory " + m.getId() + " is already " + name(t.getTo()));
        }
        if (t.getTo() == DecayStatus.ARCHIVED && m.getConstitutional()) {
            return reject(CONSTITUTIONAL, "memory " + m.getId() + " is constitutional and cannot be archived");
        }
        return new Decision.Accept(
                new DecayTransitioned(m.getId(), m.getDecayStatus(), t.getTo(), t.getScore(), t.getInputs()),
                m.getId(),
                m.getVersion() + 1);
    }

    Decision expire(MemoryRequest request, WriteModel model, Instant now, ExpireMemory e) {
        Decision refused = lifecycleActor(request, "TTL expiry");
        if (refused != null) {
            return refused;
        }
        Decision invalid = Decider.checkLength("reason", e.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        Lookup found = lookup(request, model, e.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        Decision unfit = decayable(m, "expire");
        if (unfit != null) {
            return unfit;
        }
        if (m.getConstitutional()) {
            return reject(CONSTITUTIONAL, "memory " + m.getId() + " is constitutional and never expires");
        }
        if (m.getState() != MemoryState.ACTIVE && m.getState() != MemoryState.ARCHIVED) {
            return reject(
                    INVALID_STATE,
                    "memory " + m.getId() + " is " + name(m.getState()) + "; only active or archived memories expire");
        }
        CategoryPolicy.Lifecycle lifecycle = categories.lifecycle(m.getCategory());
        Instant purgeAt = lifecycle.purgeAfter() == null ? null : now.plus(lifecycle.purgeAfter());
        return new Decision.Accept(
                new MemoryExpired(m.getId(), purgeAt, e.getLastAccessAt(), e.getReason()),
                m.getId(),
                m.getVersion() + 1);
    }

    /**
     * Purge of a soft-deleted memory (docs/architecture.md §12, seed 003: kept indefinitely unless the category's
     * policy set a purge_at). A worker purges only once purge_at has passed at the decision's time; an admin may purge
     * any soft-deleted memory, with a reason.
     */
    Decision purge(MemoryRequest request, WriteModel model, Instant now, PurgeMemory p) {
        Decision refused = lifecycleActor(request, "purges");
        if (refused != null) {
            return refused;
        }
        boolean admin = request.getActor().getType() == ActorType.ADMIN;
        Decision invalid = Decider.checkLength("reason", p.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        if (admin && Decider.isBlank(p.getReason())) {
            return reject(INVALID_ARGUMENT, "an admin's purge needs a reason");
        }
        Lookup found = lookup(request, model, p.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        if (Purges.isPurged(m)) {
            return reject(INVALID_STATE, "memory " + m.getId() + " is already purged");
        }
        Decision unfit = decayable(m, "get purged");
        if (unfit != null) {
            return unfit;
        }
        if (m.getConstitutional()) {
            return reject(CONSTITUTIONAL, "memory " + m.getId() + " is constitutional and is never purged");
        }
        if (m.getState() != MemoryState.SOFT_DELETED) {
            return reject(
                    INVALID_STATE,
                    "memory " + m.getId() + " is " + name(m.getState()) + "; only soft-deleted memories are purged");
        }
        if (!admin) {
            if (m.getPurgeAt() == null) {
                return reject(
                        INVALID_STATE,
                        "memory " + m.getId()
                                + " has no purge_at: its category keeps soft-deleted memories indefinitely");
            }
            if (now.isBefore(m.getPurgeAt())) {
                return reject(
                        INVALID_STATE,
                        "memory " + m.getId() + " may be purged from " + m.getPurgeAt() + ", not at " + now);
            }
        }
        return new Decision.Accept(
                new MemoryPurged(m.getId(), m.getPurgeAt(), p.getReason()), m.getId(), m.getVersion() + 1);
    }

    /**
     * Erasure (docs/architecture.md §12, crypto-shredding): an admin (governance) or a user (the person the memory is
     * about) erases a memory for good, with a reason, whatever its state, kind, pin or protection: a purged memory too
     * (its key still decrypts the earlier events). Agents, subagents and workers may not: erasure cannot be undone, so
     * it is never the side effect of an agent's reasoning or a job (they delete or purge). The sequencer destroys the
     * memory's data key in the same transaction.
     */
    Decision erase(MemoryRequest request, WriteModel model, EraseMemory e) {
        ActorType type = request.getActor().getType();
        if (type != ActorType.ADMIN && type != ActorType.USER) {
            return reject(FORBIDDEN, "only admins and users erase memories");
        }
        if (Decider.isBlank(e.getReason())) {
            return reject(INVALID_ARGUMENT, "an erasure needs a reason");
        }
        Decision invalid = Decider.checkLength("reason", e.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        Lookup found = lookup(request, model, e.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        if (Purges.isErased(m)) {
            return reject(INVALID_STATE, "memory " + m.getId() + " is already erased");
        }
        return new Decision.Accept(
                MemoryErased.newBuilder()
                        .setMemoryId(m.getId())
                        .setDataKeyId(null)
                        .setKeyCreatedSeq(null)
                        .setWasPurged(Purges.isPurged(m))
                        .setReason(e.getReason())
                        .build(),
                m.getId(),
                m.getVersion() + 1);
    }

    /** Pinned memories (the vault) never decay or expire; blocks are replaced, never decayed. */
    private static Decision decayable(Memory m, String what) {
        if (m.getKind() == MemoryKind.BLOCK) {
            return reject(INVALID_ARGUMENT, "memory " + m.getId() + " is a block; blocks do not " + what);
        }
        if (m.getPinned()) {
            return reject(INVALID_STATE, "memory " + m.getId() + " is pinned; pinned memories never " + what);
        }
        return null;
    }

    private static Decision lifecycleActor(MemoryRequest request, String what) {
        ActorType type = request.getActor().getType();
        if (type != ActorType.WORKER && type != ActorType.ADMIN) {
            return reject(FORBIDDEN, "only workers and admins record " + what);
        }
        return null;
    }

    private static Lookup lookup(MemoryRequest request, WriteModel model, String id) {
        Memory m = Decider.isBlank(id) ? null : model.memory(request.getSpace(), id);
        if (m == null) {
            return new Lookup(null, reject(NOT_FOUND, "no memory " + id + " in space " + request.getSpace()));
        }
        Integer expected = request.getExpectedVersion();
        if (expected != null && expected != m.getVersion()) {
            return new Lookup(
                    null,
                    reject(
                            VERSION_CONFLICT,
                            "memory " + id + " is at version " + m.getVersion() + ", expected " + expected));
        }
        return new Lookup(m, null);
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private record Lookup(Memory memory, Decision rejection) {}
}
