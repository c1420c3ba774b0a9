package io.memorychain.api.error;

import io.micronaut.http.HttpStatus;
import java.util.Map;

/**
 * The error codes of the REST API and the HTTP status each one maps to. The sequencer's rejection codes
 * (docs/architecture.md §5) pass through unchanged; the API adds its own for transport-level failures.
 */
public final class ErrorCodes {

    public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
    public static final String UNKNOWN_BLOCK_LABEL = "UNKNOWN_BLOCK_LABEL";
    public static final String FORBIDDEN = "FORBIDDEN";
    public static final String CONSTITUTIONAL = "CONSTITUTIONAL";
    public static final String NOT_IN_REFINEMENT = "NOT_IN_REFINEMENT";
    public static final String CATEGORY_NOT_ALLOWED = "CATEGORY_NOT_ALLOWED";
    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String VERSION_CONFLICT = "VERSION_CONFLICT";
    public static final String INVALID_STATE = "INVALID_STATE";
    public static final String ALREADY_LINKED = "ALREADY_LINKED";
    /**
     * A write of a sensitive profile field by someone other than the user (a user_profile block line, a memory tagged
     * profile:&lt;field&gt;) was not applied: it waits in the consent queue as the consent request the message names,
     * and applies as asked when the user grants it (docs/architecture.md §21).
     */
    public static final String HELD_FOR_CONSENT = "HELD_FOR_CONSENT";
    /** A proposal that was already committed or rejected (docs/architecture.md §10). */
    public static final String ALREADY_RESOLVED = "ALREADY_RESOLVED";

    public static final String BUDGET_EXCEEDED = "BUDGET_EXCEEDED";
    /** A consent request past its window (7 days of chain time) cannot be granted (docs/architecture.md §21). */
    public static final String EXPIRED = "EXPIRED";

    public static final String TOO_LARGE = "TOO_LARGE";
    /** Markdown view: a path outside the sandbox (400), a patch whose old_text is not in the file once (409). */
    public static final String INVALID_PATH = "INVALID_PATH";
    /**
     * memory.query filters (400): an unknown field or operator, a value of the wrong type, nesting too deep; the
     * message starts with the reason (UNKNOWN_FIELD, UNKNOWN_OPERATOR, INVALID_VALUE, TOO_DEEP) and the offending path,
     * e.g. {@code UNKNOWN_FIELD filters.AND[1].colour: ...}.
     */
    public static final String INVALID_FILTER = "INVALID_FILTER";

    public static final String PATCH_CONFLICT = "PATCH_CONFLICT";
    /** A forget confirmation token that is malformed, not signed by this service or expired (400). */
    public static final String INVALID_CONFIRMATION = "INVALID_CONFIRMATION";
    /** A forget confirmation token issued to another caller or for another space (403). */
    public static final String CONFIRMATION_NOT_YOURS = "CONFIRMATION_NOT_YOURS";
    // API-only codes.
    /** No valid {@code Authorization: Bearer} API key (401). */
    public static final String UNAUTHENTICATED = "UNAUTHENTICATED";
    /** The caller's key does not cover this space (403). */
    public static final String SPACE_NOT_ALLOWED = "SPACE_NOT_ALLOWED";
    /** The caller's role may not do this: admins read no content, only admins manage keys (403). */
    public static final String ROLE_NOT_ALLOWED = "ROLE_NOT_ALLOWED";
    /**
     * An admin asked for memory content without a consented, unexpired grant of its own that covers what it asked for
     * (Mechanic's Exception, docs/architecture.md §13) (403).
     */
    public static final String GRANT_REQUIRED = "GRANT_REQUIRED";

    public static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";
    public static final String NOT_ACCEPTABLE = "NOT_ACCEPTABLE";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE";
    public static final String REJECTED = "REJECTED";
    public static final String TIMEOUT = "TIMEOUT";
    /** A chain that does not verify, where an operation needs an intact one (a signed checkpoint). */
    public static final String CHAIN_BROKEN = "CHAIN_BROKEN";

    public static final String UNAVAILABLE = "UNAVAILABLE";
    /**
     * No instance can answer for the space right now: its partition is moving between instances, its owner is not
     * reachable, or the request was already forwarded once (docs/architecture.md §19). 503 with {@code Retry-After}; a
     * retried write with the same {@code Idempotency-Key} never applies twice.
     */
    public static final String REBALANCING = "REBALANCING";
    /**
     * A gRPC or MCP call about a space another instance serves (those transports are not forwarded; REST is): 421, the
     * message names the owner's REST address (docs/architecture.md §19).
     */
    public static final String NOT_OWNER = "NOT_OWNER";
    /** The key sent more than its quota (memory.quotas): 429 with {@code Retry-After}. */
    public static final String RATE_LIMITED = "RATE_LIMITED";

    public static final String NOT_AVAILABLE = "NOT_AVAILABLE";
    public static final String INTERNAL = "INTERNAL";

    private static final Map<String, HttpStatus> STATUS = Map.ofEntries(
            Map.entry(INVALID_ARGUMENT, HttpStatus.BAD_REQUEST),
            Map.entry(UNKNOWN_BLOCK_LABEL, HttpStatus.BAD_REQUEST),
            Map.entry(FORBIDDEN, HttpStatus.FORBIDDEN),
            Map.entry(CONSTITUTIONAL, HttpStatus.FORBIDDEN),
            Map.entry(NOT_IN_REFINEMENT, HttpStatus.FORBIDDEN),
            Map.entry(CATEGORY_NOT_ALLOWED, HttpStatus.FORBIDDEN),
            Map.entry(NOT_FOUND, HttpStatus.NOT_FOUND),
            Map.entry(VERSION_CONFLICT, HttpStatus.CONFLICT),
            Map.entry(INVALID_STATE, HttpStatus.CONFLICT),
            Map.entry(ALREADY_LINKED, HttpStatus.CONFLICT),
            Map.entry(HELD_FOR_CONSENT, HttpStatus.CONFLICT),
            Map.entry(ALREADY_RESOLVED, HttpStatus.CONFLICT),
            Map.entry(BUDGET_EXCEEDED, HttpStatus.CONFLICT),
            Map.entry(EXPIRED, HttpStatus.CONFLICT),
            Map.entry(TOO_LARGE, HttpStatus.REQUEST_ENTITY_TOO_LARGE),
            Map.entry(INVALID_PATH, HttpStatus.BAD_REQUEST),
            Map.entry(INVALID_FILTER, HttpStatus.BAD_REQUEST),
            Map.entry(PATCH_CONFLICT, HttpStatus.CONFLICT),
            Map.entry(INVALID_CONFIRMATION, HttpStatus.BAD_REQUEST),
            Map.entry(CONFIRMATION_NOT_YOURS, HttpStatus.FORBIDDEN),
            Map.entry(UNAUTHENTICATED, HttpStatus.UNAUTHORIZED),
            Map.entry(SPACE_NOT_ALLOWED, HttpStatus.FORBIDDEN),
            Map.entry(ROLE_NOT_ALLOWED, HttpStatus.FORBIDDEN),
            Map.entry(GRANT_REQUIRED, HttpStatus.FORBIDDEN),
            Map.entry(METHOD_NOT_ALLOWED, HttpStatus.METHOD_NOT_ALLOWED),
            Map.entry(NOT_ACCEPTABLE, HttpStatus.NOT_ACCEPTABLE),
            Map.entry(UNSUPPORTED_MEDIA_TYPE, HttpStatus.UNSUPPORTED_MEDIA_TYPE),
            Map.entry(REJECTED, HttpStatus.UNPROCESSABLE_ENTITY),
            Map.entry(TIMEOUT, HttpStatus.SERVICE_UNAVAILABLE),
            Map.entry(CHAIN_BROKEN, HttpStatus.CONFLICT),
            Map.entry(UNAVAILABLE, HttpStatus.SERVICE_UNAVAILABLE),
            Map.entry(REBALANCING, HttpStatus.SERVICE_UNAVAILABLE),
            Map.entry(NOT_OWNER, HttpStatus.MISDIRECTED_REQUEST),
            Map.entry(RATE_LIMITED, HttpStatus.TOO_MANY_REQUESTS),
            Map.entry(NOT_AVAILABLE, HttpStatus.NOT_IMPLEMENTED),
            Map.entry(INTERNAL, HttpStatus.INTERNAL_SERVER_ERROR));

    private ErrorCodes() {}

    /**
     * HTTP status for a code. A rejection code this API version does not know (a newer sequencer) is answered with 422
     * and the code passed through, so clients still see it.
     */
    public static HttpStatus statusOf(String code) {
        return code == null
                ? HttpStatus.UNPROCESSABLE_ENTITY
                : STATUS.getOrDefault(code, HttpStatus.UNPROCESSABLE_ENTITY);
    }

    /** The code used for an error response that only has an HTTP status (framework errors). */
    public static String codeOf(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> INVALID_ARGUMENT;
            case NOT_FOUND -> NOT_FOUND;
            case FORBIDDEN -> FORBIDDEN;
            case UNAUTHORIZED -> UNAUTHENTICATED;
            case METHOD_NOT_ALLOWED -> METHOD_NOT_ALLOWED;
            case NOT_ACCEPTABLE -> NOT_ACCEPTABLE;
            case UNSUPPORTED_MEDIA_TYPE -> UNSUPPORTED_MEDIA_TYPE;
            case REQUEST_ENTITY_TOO_LARGE -> TOO_LARGE;
            case TOO_MANY_REQUESTS -> RATE_LIMITED;
            case CONFLICT -> VERSION_CONFLICT;
            case UNPROCESSABLE_ENTITY -> INVALID_ARGUMENT;
            case SERVICE_UNAVAILABLE, GATEWAY_TIMEOUT -> UNAVAILABLE;
            case NOT_IMPLEMENTED -> NOT_AVAILABLE;
            default -> status.getCode() >= 500 ? INTERNAL : INVALID_ARGUMENT;
        };
    }
}
