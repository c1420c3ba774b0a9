package io.memorychain.console.web;

import io.memorychain.api.auth.AccessRules;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.console.session.ConsoleSession;

/**
 * One console request by a signed-in key, on a space or outside any: what pages need to ask the application services
 * (the actor, a write envelope) after the same role and space rules as REST ({@link #authorize}).
 */
public record Visit(ConsoleSession session, Principal principal, String space) {

    /** The operation's role and space rules ({@link AccessRules}), as the REST filter applies them. */
    public void authorize(Operation operation) {
        AccessRules.authorize(
                principal,
                operation.scope(),
                space,
                "the console's " + operation.name().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Whether the key's role may run the operation here (the space itself is checked by {@link #authorize}): pages that
     * gather several operations show only the parts a role may see, e.g. an admin's inbox has no reflections.
     */
    public boolean may(Operation operation) {
        try {
            authorize(operation);
            return true;
        } catch (io.memorychain.api.error.ApiException e) {
            if (io.memorychain.api.error.ErrorCodes.SPACE_NOT_ALLOWED.equals(e.code())) {
                throw e;
            }
            return false;
        }
    }

    public Actor actor() {
        return principal.actor();
    }

    public Role role() {
        return principal.role();
    }

    public boolean admin() {
        return principal.role() == Role.ADMIN;
    }

    /** A write by this key on the open space: a fresh request id, no expected version. */
    public WriteContext write() {
        return WriteContext.of(space, principal.actor(), null, null, null);
    }

    /** A change of something that exists, expecting {@code version} (null: any). */
    public WriteContext change(Integer version) {
        return WriteContext.of(space, principal.actor(), null, version, null);
    }
}
