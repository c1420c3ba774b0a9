package io.memorychain.api.auth;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;

/**
 * The role and space rules of every call, whatever the transport: REST classifies its paths ({@link AuthFilter}), gRPC
 * its methods ({@code api.grpc.GrpcAuthInterceptor}); both then ask this class. Operations check the rest (e.g.
 * sub-agents cannot write: the sequencer rejects it; category allowlists: the operations).
 */
public final class AccessRules {

    /** What an operation touches (docs/architecture.md §13). */
    public enum Scope {
        /** Memory content, read or written: every role except admin (admins govern and read no content). */
        CONTENT,
        /**
         * Memory content that an admin may read under a Mechanic's Exception grant (docs/architecture.md §13): every
         * role except admin as {@link #CONTENT}; admins pass here and the operation itself answers only under a
         * consented, unexpired grant of theirs ({@code api.grants.GrantedReads}), else 403 GRANT_REQUIRED.
         */
        GRANTED,
        /** Governance (chain verification, protection, refinement, proposals) and the caller itself: every role. */
        GOVERNANCE,
        /** API key management: admins only. */
        KEYS,
        /** Admin-only governance that shows content to the admin: the rollback (docs/architecture.md §17). */
        ADMIN
    }

    private AccessRules() {}

    /**
     * @param caller the authenticated principal
     * @param scope what the operation touches
     * @param space the space it works on, or null for calls outside spaces
     * @param operation the operation as the caller named it (a path, a gRPC method), for the messages
     * @throws ApiException ROLE_NOT_ALLOWED or SPACE_NOT_ALLOWED
     */
    public static void authorize(Principal caller, Scope scope, String space, String operation) {
        if (caller.role() == Role.ADMIN && scope == Scope.CONTENT) {
            throw new ApiException(
                    ErrorCodes.ROLE_NOT_ALLOWED,
                    "admin keys govern (keys, chain verification, "
                            + "protection, refinement, proposals) and read no memory content: " + operation
                            + " needs an agent key");
        }
        if (caller.role() != Role.ADMIN && scope == Scope.KEYS) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, "only admin keys manage API keys");
        }
        if (caller.role() != Role.ADMIN && scope == Scope.ADMIN) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, "only admin keys roll back: " + operation);
        }
        if (space != null && !caller.mayUse(space)) {
            throw new ApiException(
                    ErrorCodes.SPACE_NOT_ALLOWED,
                    "the key of " + caller.id() + " does not cover space '" + space + "' (it covers "
                            + String.join(", ", caller.spaces()) + ")");
        }
    }
}
