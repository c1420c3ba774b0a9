package io.memorychain.api.audit;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.view.AuditEntry;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which audit entries a question is about (docs/architecture.md §13: "what changed recently", "why was X forgotten",
 * "who changed block Y", "what did actor Z do"): every given criterion must hold.
 *
 * @param memoryId entries touching this memory (for a forgotten memory: its decay, expiry and deletion)
 * @param actor entries by this actor: {@code type:id} (e.g. {@code agent:assistant}) or a bare id
 * @param types entries of these event types (e.g. {@code DecayTransitioned}), any when empty
 * @param blockLabel entries touching a block with this label (every version of it)
 * @param since entries that occurred at or after this time
 * @param until entries that occurred before this time
 * @param newestFirst the most recent matches first (no paging: the last {@code limit} matches)
 * @param userId entries touching a memory of this user ({@code user_id} of the memory): a user's history
 */
public record AuditQuery(
        String memoryId,
        String actor,
        Set<String> types,
        String blockLabel,
        Instant since,
        Instant until,
        boolean newestFirst,
        String userId) {

    public static final AuditQuery ALL = new AuditQuery(null, null, Set.of(), null, null, null, false);
    /** The value of {@code user_id} that names the calling user's own id. */
    public static final String ME = "me";

    public AuditQuery {
        types = types == null ? Set.of() : Set.copyOf(types);
        if (since != null && until != null && !since.isBefore(until)) {
            throw ApiException.invalid("since must be before until");
        }
    }

    public AuditQuery(
            String memoryId,
            String actor,
            Set<String> types,
            String blockLabel,
            Instant since,
            Instant until,
            boolean newestFirst) {
        this(memoryId, actor, types, blockLabel, since, until, newestFirst, null);
    }

    /**
     * This query narrowed to the memories of one user. {@code me} is the caller's own user id, which only a user's key
     * has (its principal's id: the id its memories carry as {@code user_id}); 400 INVALID_ARGUMENT for another key.
     */
    public AuditQuery forUser(String user, Actor reader) {
        String id = blankToNull(user);
        if (ME.equals(id)) {
            if (reader == null || reader.getType() != ActorType.USER) {
                throw ApiException.invalid("user_id=me names the caller's own user id, which only a user's key has");
            }
            id = reader.getId();
        }
        return new AuditQuery(memoryId, actor, types, blockLabel, since, until, newestFirst, id);
    }

    /** From the REST query parameters; throws 400 INVALID_ARGUMENT on a bad time or order. */
    public static AuditQuery of(
            String memoryId, String actor, String types, String blockLabel, String since, String until, String order) {
        boolean newestFirst;
        if (order == null || order.equalsIgnoreCase("asc")) {
            newestFirst = false;
        } else if (order.equalsIgnoreCase("desc")) {
            newestFirst = true;
        } else {
            throw ApiException.invalid("order must be asc or desc, was '" + order + "'");
        }
        Set<String> typeSet = types == null
                ? Set.of()
                : Arrays.stream(types.split(","))
                        .map(String::strip)
                        .filter(t -> !t.isEmpty())
                        .collect(Collectors.toSet());
        return new AuditQuery(
                blankToNull(memoryId),
                blankToNull(actor),
                typeSet,
                blankToNull(blockLabel),
                InputRules.instant("since", since),
                InputRules.instant("until", until),
                newestFirst);
    }

    /** Whether this query filters at all (else the plain log). */
    public boolean filters() {
        return memoryId != null
                || actor != null
                || !types.isEmpty()
                || blockLabel != null
                || since != null
                || until != null
                || newestFirst
                || userId != null;
    }

    /** The criteria an entry alone can answer (all but the block label and the user, which need the views). */
    Predicate<AuditEntry> entryMatch() {
        return e -> (memoryId == null || e.getMemoryIds().contains(memoryId))
                && (actor == null || actorMatches(e))
                && (types.isEmpty() || types.contains(e.getEventType()))
                && (since == null || !e.getOccurredAt().isBefore(since))
                && (until == null || e.getOccurredAt().isBefore(until));
    }

    private boolean actorMatches(AuditEntry e) {
        String id = e.getActor().getId();
        String typed = e.getActor().getType().name().toLowerCase(Locale.ROOT) + ":" + id;
        return actor.equals(id) || actor.equalsIgnoreCase(typed);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
