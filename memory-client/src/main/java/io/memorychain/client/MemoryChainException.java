package io.memorychain.client;

/**
 * An error answer of the Memory Chain API: its stable code, message, request id (the Idempotency-Key of a write) and
 * HTTP status. One subclass per code the API documents; a code this client does not know (a newer service) is an
 * {@link Unknown} carrying it.
 */
public abstract sealed class MemoryChainException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String requestId;
    private final int status;

    MemoryChainException(String code, String message, String requestId, int status) {
        super(code + ": " + message, null, false, false);
        this.code = code;
        this.requestId = requestId;
        this.status = status;
    }

    /** The typed exception of an error answer. */
    public static MemoryChainException of(String code, String message, String requestId, int status) {
        return switch (code == null ? "" : code) {
            case "INVALID_ARGUMENT" -> new InvalidArgument(message, requestId, status);
            case "UNKNOWN_BLOCK_LABEL" -> new UnknownBlockLabel(message, requestId, status);
            case "INVALID_PATH" -> new InvalidPath(message, requestId, status);
            case "INVALID_FILTER" -> new InvalidFilter(message, requestId, status);
            case "INVALID_CONFIRMATION" -> new InvalidConfirmation(message, requestId, status);
            case "UNAUTHENTICATED" -> new Unauthenticated(message, requestId, status);
            case "FORBIDDEN" -> new Forbidden(message, requestId, status);
            case "SPACE_NOT_ALLOWED" -> new SpaceNotAllowed(message, requestId, status);
            case "ROLE_NOT_ALLOWED" -> new RoleNotAllowed(message, requestId, status);
            case "CONSTITUTIONAL" -> new Constitutional(message, requestId, status);
            case "NOT_IN_REFINEMENT" -> new NotInRefinement(message, requestId, status);
            case "CATEGORY_NOT_ALLOWED" -> new CategoryNotAllowed(message, requestId, status);
            case "GRANT_REQUIRED" -> new GrantRequired(message, requestId, status);
            case "CONFIRMATION_NOT_YOURS" -> new ConfirmationNotYours(message, requestId, status);
            case "NOT_FOUND" -> new NotFound(message, requestId, status);
            case "METHOD_NOT_ALLOWED" -> new MethodNotAllowed(message, requestId, status);
            case "NOT_ACCEPTABLE" -> new NotAcceptable(message, requestId, status);
            case "VERSION_CONFLICT" -> new VersionConflict(message, requestId, status);
            case "INVALID_STATE" -> new InvalidState(message, requestId, status);
            case "HELD_FOR_CONSENT" -> new HeldForConsent(message, requestId, status);
            case "ALREADY_LINKED" -> new AlreadyLinked(message, requestId, status);
            case "ALREADY_RESOLVED" -> new AlreadyResolved(message, requestId, status);
            case "BUDGET_EXCEEDED" -> new BudgetExceeded(message, requestId, status);
            case "EXPIRED" -> new Expired(message, requestId, status);
            case "PATCH_CONFLICT" -> new PatchConflict(message, requestId, status);
            case "CHAIN_BROKEN" -> new ChainBroken(message, requestId, status);
            case "TOO_LARGE" -> new TooLarge(message, requestId, status);
            case "UNSUPPORTED_MEDIA_TYPE" -> new UnsupportedMediaType(message, requestId, status);
            case "NOT_OWNER" -> new NotOwner(message, requestId, status);
            case "REJECTED" -> new Rejected(message, requestId, status);
            case "INTERNAL" -> new Internal(message, requestId, status);
            case "NOT_AVAILABLE" -> new NotAvailable(message, requestId, status);
            case "TIMEOUT" -> new Timeout(message, requestId, status);
            case "UNAVAILABLE" -> new Unavailable(message, requestId, status);
            case "REBALANCING" -> new Rebalancing(message, requestId, status);
            case "RATE_LIMITED" -> new RateLimited(message, requestId, status);
            default -> new Unknown(code, message, requestId, status);
        };
    }

    /** The stable error code, e.g. {@code VERSION_CONFLICT}. */
    public String code() {
        return code;
    }

    /** The service's message without the code. */
    public String detail() {
        return getMessage().substring(code.length() + 2);
    }

    /** The request id of a write (its Idempotency-Key), or null. */
    public String requestId() {
        return requestId;
    }

    /** The HTTP status of the answer. */
    public int status() {
        return status;
    }

    /** Whether retrying the same call (with the same Idempotency-Key) can succeed. */
    public boolean retryable() {
        return status == 429 || status == 503;
    }

    /** A code this client does not know. */
    public static final class Unknown extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Unknown(String code, String message, String requestId, int status) {
            super(code, message, requestId, status);
        }
    }

    /** {@code INVALID_ARGUMENT} (HTTP 400). */
    public static final class InvalidArgument extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        InvalidArgument(String message, String requestId, int status) {
            super("INVALID_ARGUMENT", message, requestId, status);
        }
    }

    /** {@code UNKNOWN_BLOCK_LABEL} (HTTP 400). */
    public static final class UnknownBlockLabel extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        UnknownBlockLabel(String message, String requestId, int status) {
            super("UNKNOWN_BLOCK_LABEL", message, requestId, status);
        }
    }

    /** {@code INVALID_PATH} (HTTP 400). */
    public static final class InvalidPath extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        InvalidPath(String message, String requestId, int status) {
            super("INVALID_PATH", message, requestId, status);
        }
    }

    /** {@code INVALID_FILTER} (HTTP 400). */
    public static final class InvalidFilter extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        InvalidFilter(String message, String requestId, int status) {
            super("INVALID_FILTER", message, requestId, status);
        }
    }

    /** {@code INVALID_CONFIRMATION} (HTTP 400). */
    public static final class InvalidConfirmation extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        InvalidConfirmation(String message, String requestId, int status) {
            super("INVALID_CONFIRMATION", message, requestId, status);
        }
    }

    /** {@code UNAUTHENTICATED} (HTTP 401). */
    public static final class Unauthenticated extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Unauthenticated(String message, String requestId, int status) {
            super("UNAUTHENTICATED", message, requestId, status);
        }
    }

    /** {@code FORBIDDEN} (HTTP 403). */
    public static final class Forbidden extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Forbidden(String message, String requestId, int status) {
            super("FORBIDDEN", message, requestId, status);
        }
    }

    /** {@code SPACE_NOT_ALLOWED} (HTTP 403). */
    public static final class SpaceNotAllowed extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        SpaceNotAllowed(String message, String requestId, int status) {
            super("SPACE_NOT_ALLOWED", message, requestId, status);
        }
    }

    /** {@code ROLE_NOT_ALLOWED} (HTTP 403). */
    public static final class RoleNotAllowed extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        RoleNotAllowed(String message, String requestId, int status) {
            super("ROLE_NOT_ALLOWED", message, requestId, status);
        }
    }

    /** {@code CONSTITUTIONAL} (HTTP 403). */
    public static final class Constitutional extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Constitutional(String message, String requestId, int status) {
            super("CONSTITUTIONAL", message, requestId, status);
        }
    }

    /** {@code NOT_IN_REFINEMENT} (HTTP 403). */
    public static final class NotInRefinement extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        NotInRefinement(String message, String requestId, int status) {
            super("NOT_IN_REFINEMENT", message, requestId, status);
        }
    }

    /** {@code CATEGORY_NOT_ALLOWED} (HTTP 403). */
    public static final class CategoryNotAllowed extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        CategoryNotAllowed(String message, String requestId, int status) {
            super("CATEGORY_NOT_ALLOWED", message, requestId, status);
        }
    }

    /** {@code GRANT_REQUIRED} (HTTP 403). */
    public static final class GrantRequired extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        GrantRequired(String message, String requestId, int status) {
            super("GRANT_REQUIRED", message, requestId, status);
        }
    }

    /** {@code CONFIRMATION_NOT_YOURS} (HTTP 403). */
    public static final class ConfirmationNotYours extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        ConfirmationNotYours(String message, String requestId, int status) {
            super("CONFIRMATION_NOT_YOURS", message, requestId, status);
        }
    }

    /** {@code NOT_FOUND} (HTTP 404). */
    public static final class NotFound extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        NotFound(String message, String requestId, int status) {
            super("NOT_FOUND", message, requestId, status);
        }
    }

    /** {@code METHOD_NOT_ALLOWED} (HTTP 405). */
    public static final class MethodNotAllowed extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        MethodNotAllowed(String message, String requestId, int status) {
            super("METHOD_NOT_ALLOWED", message, requestId, status);
        }
    }

    /** {@code NOT_ACCEPTABLE} (HTTP 406). */
    public static final class NotAcceptable extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        NotAcceptable(String message, String requestId, int status) {
            super("NOT_ACCEPTABLE", message, requestId, status);
        }
    }

    /** {@code VERSION_CONFLICT} (HTTP 409). */
    public static final class VersionConflict extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        VersionConflict(String message, String requestId, int status) {
            super("VERSION_CONFLICT", message, requestId, status);
        }
    }

    /** {@code INVALID_STATE} (HTTP 409). */
    public static final class InvalidState extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        InvalidState(String message, String requestId, int status) {
            super("INVALID_STATE", message, requestId, status);
        }
    }

    /** {@code HELD_FOR_CONSENT} (HTTP 409): the write waits for the user's consent as the consent request named. */
    public static final class HeldForConsent extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        HeldForConsent(String message, String requestId, int status) {
            super("HELD_FOR_CONSENT", message, requestId, status);
        }
    }

    /** {@code ALREADY_LINKED} (HTTP 409). */
    public static final class AlreadyLinked extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        AlreadyLinked(String message, String requestId, int status) {
            super("ALREADY_LINKED", message, requestId, status);
        }
    }

    /** {@code ALREADY_RESOLVED} (HTTP 409). */
    public static final class AlreadyResolved extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        AlreadyResolved(String message, String requestId, int status) {
            super("ALREADY_RESOLVED", message, requestId, status);
        }
    }

    /** {@code BUDGET_EXCEEDED} (HTTP 409). */
    public static final class BudgetExceeded extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded(String message, String requestId, int status) {
            super("BUDGET_EXCEEDED", message, requestId, status);
        }
    }

    /** {@code EXPIRED} (HTTP 409). */
    public static final class Expired extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Expired(String message, String requestId, int status) {
            super("EXPIRED", message, requestId, status);
        }
    }

    /** {@code PATCH_CONFLICT} (HTTP 409). */
    public static final class PatchConflict extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        PatchConflict(String message, String requestId, int status) {
            super("PATCH_CONFLICT", message, requestId, status);
        }
    }

    /** {@code CHAIN_BROKEN} (HTTP 409). */
    public static final class ChainBroken extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        ChainBroken(String message, String requestId, int status) {
            super("CHAIN_BROKEN", message, requestId, status);
        }
    }

    /** {@code TOO_LARGE} (HTTP 413). */
    public static final class TooLarge extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message, String requestId, int status) {
            super("TOO_LARGE", message, requestId, status);
        }
    }

    /** {@code UNSUPPORTED_MEDIA_TYPE} (HTTP 415). */
    public static final class UnsupportedMediaType extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        UnsupportedMediaType(String message, String requestId, int status) {
            super("UNSUPPORTED_MEDIA_TYPE", message, requestId, status);
        }
    }

    /** {@code NOT_OWNER} (HTTP 421). */
    public static final class NotOwner extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        NotOwner(String message, String requestId, int status) {
            super("NOT_OWNER", message, requestId, status);
        }
    }

    /** {@code REJECTED} (HTTP 422). */
    public static final class Rejected extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Rejected(String message, String requestId, int status) {
            super("REJECTED", message, requestId, status);
        }
    }

    /** {@code INTERNAL} (HTTP 500). */
    public static final class Internal extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Internal(String message, String requestId, int status) {
            super("INTERNAL", message, requestId, status);
        }
    }

    /** {@code NOT_AVAILABLE} (HTTP 501). */
    public static final class NotAvailable extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        NotAvailable(String message, String requestId, int status) {
            super("NOT_AVAILABLE", message, requestId, status);
        }
    }

    /** {@code TIMEOUT} (HTTP 503). */
    public static final class Timeout extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Timeout(String message, String requestId, int status) {
            super("TIMEOUT", message, requestId, status);
        }
    }

    /** {@code UNAVAILABLE} (HTTP 503). */
    public static final class Unavailable extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Unavailable(String message, String requestId, int status) {
            super("UNAVAILABLE", message, requestId, status);
        }
    }

    /** {@code REBALANCING} (HTTP 503). */
    public static final class Rebalancing extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        Rebalancing(String message, String requestId, int status) {
            super("REBALANCING", message, requestId, status);
        }
    }

    /** {@code RATE_LIMITED} (HTTP 429): the key is past its quota; retried after {@code Retry-After}. */
    public static final class RateLimited extends MemoryChainException {
        private static final long serialVersionUID = 1L;

        RateLimited(String message, String requestId, int status) {
            super("RATE_LIMITED", message, requestId, status);
        }
    }
}
