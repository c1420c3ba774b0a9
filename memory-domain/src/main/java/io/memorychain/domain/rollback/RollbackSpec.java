package io.memorychain.domain.rollback;

import io.memorychain.avro.RollbackScope;
import java.time.Instant;
import java.util.Objects;

/**
 * What a rollback should undo (docs/architecture.md §17), before the chain is read: the planner resolves it to a target
 * seq.
 *
 * @param scope SPACE, MEMORY, SESSION or ACTOR
 * @param scopeId the memory id (MEMORY), session id (SESSION) or actor ({@code type:id} or id; ACTOR); null for SPACE
 * @param toSeq SPACE and MEMORY: the seq whose state is restored (or null with {@code toTime}); ACTOR: the first seq of
 *     the range undone (its state before that seq is restored)
 * @param toTime SPACE and MEMORY: restore the state at this time (the last seq that occurred at or before it)
 * @param rangeToSeq ACTOR: the last seq of the range undone; null for the head
 */
public record RollbackSpec(RollbackScope scope, String scopeId, Long toSeq, Instant toTime, Long rangeToSeq) {

    public RollbackSpec {
        Objects.requireNonNull(scope, "scope");
        switch (scope) {
            case SPACE, MEMORY -> {
                if ((toSeq == null) == (toTime == null)) {
                    throw new RollbackPlanException("INVALID_ARGUMENT", "give exactly one of to_seq and to_time");
                }
            }
            case SESSION, REFLECTION -> {
                if (toSeq != null || toTime != null) {
                    throw new RollbackPlanException(
                            "INVALID_ARGUMENT",
                            "a " + scope.name().toLowerCase(java.util.Locale.ROOT) + " rollback restores the state "
                                    + "before it: no to_seq or to_time");
                }
            }
            case ACTOR -> {
                if (toSeq == null || toTime != null) {
                    throw new RollbackPlanException(
                            "INVALID_ARGUMENT", "an actor rollback needs the range's first seq (from_seq), not a time");
                }
            }
            default -> throw new IllegalArgumentException("scope " + scope);
        }
        if (scope != RollbackScope.SPACE && (scopeId == null || scopeId.isBlank())) {
            throw new RollbackPlanException("INVALID_ARGUMENT", scope + " rollback needs its id");
        }
        if (toSeq != null && toSeq < 0 || rangeToSeq != null && rangeToSeq < 1) {
            throw new RollbackPlanException("INVALID_ARGUMENT", "seqs are positive");
        }
        if (scope == RollbackScope.ACTOR && toSeq < 1) {
            throw new RollbackPlanException("INVALID_ARGUMENT", "from_seq starts at 1");
        }
        if (rangeToSeq != null && (scope != RollbackScope.ACTOR || rangeToSeq < toSeq)) {
            throw new RollbackPlanException(
                    "INVALID_ARGUMENT", "a range end belongs to an actor rollback, after its start");
        }
    }

    /**
     * The spec as the API and the command line take it: at most one of {@code memoryId}, {@code sessionId},
     * {@code actor} names the scope (none: the whole space).
     *
     * @param fromSeq ACTOR: the first seq of the range (required); refused otherwise
     * @param toSeq SPACE and MEMORY: the target seq (or {@code toTime}); ACTOR: the range's last seq (optional)
     * @throws RollbackPlanException INVALID_ARGUMENT for a combination that means nothing
     */
    public static RollbackSpec of(
            String memoryId, String sessionId, String actor, Long fromSeq, Long toSeq, Instant toTime) {
        return of(memoryId, sessionId, actor, null, fromSeq, toSeq, toTime);
    }

    /** As {@link #of(String, String, String, Long, Long, Instant)}, with {@code reflectionId} for REFLECTION. */
    public static RollbackSpec of(
            String memoryId,
            String sessionId,
            String actor,
            String reflectionId,
            Long fromSeq,
            Long toSeq,
            Instant toTime) {
        int named = (memoryId != null ? 1 : 0)
                + (sessionId != null ? 1 : 0)
                + (actor != null ? 1 : 0)
                + (reflectionId != null ? 1 : 0);
        if (named > 1) {
            throw new RollbackPlanException(
                    "INVALID_ARGUMENT", "give at most one of memory_id, session_id, actor and reflection_id");
        }
        if (reflectionId != null) {
            if (fromSeq != null) {
                throw new RollbackPlanException("INVALID_ARGUMENT", "from_seq belongs to an actor rollback");
            }
            return new RollbackSpec(RollbackScope.REFLECTION, reflectionId, toSeq, toTime, null);
        }
        if (fromSeq != null && actor == null) {
            throw new RollbackPlanException("INVALID_ARGUMENT", "from_seq belongs to an actor rollback");
        }
        if (sessionId != null) {
            return new RollbackSpec(RollbackScope.SESSION, sessionId, toSeq, toTime, null);
        }
        if (actor != null) {
            if (fromSeq == null) {
                throw new RollbackPlanException("INVALID_ARGUMENT", "an actor rollback needs from_seq");
            }
            return new RollbackSpec(RollbackScope.ACTOR, actor, fromSeq, toTime, toSeq);
        }
        return new RollbackSpec(
                memoryId != null ? RollbackScope.MEMORY : RollbackScope.SPACE, memoryId, toSeq, toTime, null);
    }

    public static RollbackSpec space(long toSeq) {
        return new RollbackSpec(RollbackScope.SPACE, null, toSeq, null, null);
    }

    public static RollbackSpec spaceAt(Instant time) {
        return new RollbackSpec(RollbackScope.SPACE, null, null, time, null);
    }

    public static RollbackSpec memory(String id, long toSeq) {
        return new RollbackSpec(RollbackScope.MEMORY, id, toSeq, null, null);
    }

    /** What one approved reflection applied (docs/architecture.md §17, §18): the state before its decision. */
    public static RollbackSpec reflection(String reflectionId) {
        return new RollbackSpec(RollbackScope.REFLECTION, reflectionId, null, null, null);
    }

    public static RollbackSpec session(String sessionId) {
        return new RollbackSpec(RollbackScope.SESSION, sessionId, null, null, null);
    }

    public static RollbackSpec actor(String actor, long fromSeq, Long toSeq) {
        return new RollbackSpec(RollbackScope.ACTOR, actor, fromSeq, null, toSeq);
    }
}
