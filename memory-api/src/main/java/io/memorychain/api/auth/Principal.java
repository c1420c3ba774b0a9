package io.memorychain.api.auth;

import io.memorychain.avro.Actor;
import java.util.List;
import java.util.Objects;

/**
 * An authenticated caller: who it is, its role, the agent it acts as or for, and the spaces it may use.
 *
 * @param id the key owner's name (unique among keys; shown in logs and key listings)
 * @param role what it may do
 * @param agentId the agent an agent or sub-agent key speaks as (the actor id of its events); for workers and admins
 *     their own id
 * @param spaces space names it may use: exact names, {@code prefix*}, or {@code *} for all
 */
public record Principal(String id, Role role, String agentId, List<String> spaces) {

    /** The request attribute under which the authentication filter stores the caller. */
    public static final String ATTRIBUTE = "memorychain.principal";
    /** The request attribute holding {@link #actor()}, which controllers bind as the actor of their requests. */
    public static final String ACTOR = "memorychain.actor";

    public static final String ALL_SPACES = "*";

    public Principal {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(agentId, "agentId");
        spaces = List.copyOf(spaces);
    }

    /** The actor recorded on the events this caller's requests produce: {@code agent:ID}, {@code subagent:NAME}, ... */
    public Actor actor() {
        return new Actor(role.actorType(), agentId);
    }

    public boolean mayUse(String space) {
        for (String allowed : spaces) {
            if (allowed.equals(ALL_SPACES)
                    || allowed.equals(space)
                    || allowed.endsWith("*") && space.startsWith(allowed.substring(0, allowed.length() - 1))) {
                return true;
            }
        }
        return false;
    }
}
