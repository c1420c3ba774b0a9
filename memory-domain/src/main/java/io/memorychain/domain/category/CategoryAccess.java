package io.memorychain.domain.category;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which categories an actor may read and write under a {@link CategoryPolicy}. Agents and sub-agents are confined by
 * the allowlist of their id ({@code agent:planner} and {@code subagent:planner} both by {@code allowlists.planner});
 * users, admins, the system and workers act for the whole space and are never confined. The same rule backs the
 * sequencer (writes) and the API (reads), so they cannot disagree.
 */
public record CategoryAccess(CategoryPolicy policy) {

    public CategoryAccess {
        Objects.requireNonNull(policy, "policy");
    }

    public static CategoryAccess unrestricted() {
        return new CategoryAccess(CategoryPolicy.unrestricted());
    }

    /** Whether allowlists apply to this kind of actor at all. */
    public static boolean confinable(Actor actor) {
        return actor != null && (actor.getType() == ActorType.AGENT || actor.getType() == ActorType.SUBAGENT);
    }

    /** The categories the actor may use, or empty when the actor is unrestricted. */
    public Optional<Set<String>> allowedFor(Actor actor) {
        return confinable(actor) ? policy.allowedFor(actor.getId()) : Optional.empty();
    }

    /** Whether the actor may read or write a memory of that category (null category: always). */
    public boolean allows(Actor actor, String category) {
        return !confinable(actor) || policy.allows(actor.getId(), category);
    }

    /**
     * "category 'tone' is not allowed for agent planner (allowed: goals, tasks)": for CATEGORY_NOT_ALLOWED messages.
     */
    public String notAllowed(Actor actor, String category) {
        String allowed = allowedFor(actor)
                .map(set -> String.join(", ", set.stream().sorted().toList()))
                .orElse("");
        return "category '" + category + "' is not allowed for "
                + actor.getType().name().toLowerCase(Locale.ROOT) + " " + actor.getId() + " (allowed: "
                + (allowed.isEmpty() ? "none" : allowed) + ")";
    }
}
