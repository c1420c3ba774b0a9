package io.memorychain.api.grpc;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.memorychain.api.auth.KeyStoreUnavailableException;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API's error codes as gRPC statuses. The status code is the nearest gRPC code ({@link #statusOf}); the description
 * is {@code "<CODE>: <message>"}; the trailers carry the machine-readable code ({@value #ERROR_CODE_KEY}) and, for
 * writes that reached the sequencer or timed out, the request id ({@value #REQUEST_ID_KEY}). Unexpected exceptions are
 * logged and answered INTERNAL without any detail: no stack trace, no exception class ever reaches a client.
 */
public final class GrpcErrors {

    public static final String ERROR_CODE_KEY = "error-code";
    public static final String REQUEST_ID_KEY = "request-id";
    public static final Metadata.Key<String> ERROR_CODE =
            Metadata.Key.of(ERROR_CODE_KEY, Metadata.ASCII_STRING_MARSHALLER);
    public static final Metadata.Key<String> REQUEST_ID =
            Metadata.Key.of(REQUEST_ID_KEY, Metadata.ASCII_STRING_MARSHALLER);

    private static final Logger log = LoggerFactory.getLogger(GrpcErrors.class);

    private static final Map<String, Status.Code> CODES = Map.ofEntries(
            Map.entry(ErrorCodes.INVALID_ARGUMENT, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.UNKNOWN_BLOCK_LABEL, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.INVALID_PATH, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.INVALID_FILTER, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.TOO_LARGE, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.UNAUTHENTICATED, Status.Code.UNAUTHENTICATED),
            Map.entry(ErrorCodes.FORBIDDEN, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.CONSTITUTIONAL, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.NOT_IN_REFINEMENT, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.CATEGORY_NOT_ALLOWED, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.SPACE_NOT_ALLOWED, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.ROLE_NOT_ALLOWED, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.GRANT_REQUIRED, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.CONFIRMATION_NOT_YOURS, Status.Code.PERMISSION_DENIED),
            Map.entry(ErrorCodes.INVALID_CONFIRMATION, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.NOT_FOUND, Status.Code.NOT_FOUND),
            Map.entry(ErrorCodes.VERSION_CONFLICT, Status.Code.ABORTED),
            Map.entry(ErrorCodes.PATCH_CONFLICT, Status.Code.ABORTED),
            Map.entry(ErrorCodes.INVALID_STATE, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.ALREADY_RESOLVED, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.HELD_FOR_CONSENT, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.EXPIRED, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.BUDGET_EXCEEDED, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.ALREADY_LINKED, Status.Code.ALREADY_EXISTS),
            Map.entry(ErrorCodes.RATE_LIMITED, Status.Code.RESOURCE_EXHAUSTED),
            Map.entry(ErrorCodes.METHOD_NOT_ALLOWED, Status.Code.UNIMPLEMENTED),
            Map.entry(ErrorCodes.NOT_ACCEPTABLE, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.UNSUPPORTED_MEDIA_TYPE, Status.Code.INVALID_ARGUMENT),
            Map.entry(ErrorCodes.REJECTED, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.TIMEOUT, Status.Code.UNAVAILABLE),
            Map.entry(ErrorCodes.CHAIN_BROKEN, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.UNAVAILABLE, Status.Code.UNAVAILABLE),
            Map.entry(ErrorCodes.REBALANCING, Status.Code.UNAVAILABLE),
            Map.entry(ErrorCodes.NOT_OWNER, Status.Code.FAILED_PRECONDITION),
            Map.entry(ErrorCodes.NOT_AVAILABLE, Status.Code.UNIMPLEMENTED),
            Map.entry(ErrorCodes.INTERNAL, Status.Code.INTERNAL));

    private GrpcErrors() {}

    /**
     * The gRPC code of an API code. A rejection code this version does not know (a newer sequencer) is
     * FAILED_PRECONDITION with the code passed through in the trailer, as REST answers it 422.
     */
    public static Status.Code statusOf(String code) {
        return code == null
                ? Status.Code.FAILED_PRECONDITION
                : CODES.getOrDefault(code, Status.Code.FAILED_PRECONDITION);
    }

    /** Whether the code has a status of its own (not the fallback for unknown rejection codes). */
    static boolean isMapped(String code) {
        return CODES.containsKey(code);
    }

    public static StatusRuntimeException of(ApiException e) {
        Metadata trailers = new Metadata();
        trailers.put(ERROR_CODE, e.code());
        if (e.requestId() != null) {
            trailers.put(REQUEST_ID, e.requestId());
        }
        return Status.fromCode(statusOf(e.code()))
                .withDescription(description(e.code() + ": " + e.getMessage()))
                .asRuntimeException(trailers);
    }

    /**
     * A description short enough for the {@code grpc-message} trailer: messages can quote the request (an id, a space),
     * and a trailer over the client's metadata limit (8 KiB by default) fails the call as INTERNAL on the client.
     */
    static String description(String text) {
        return text.length() <= MAX_DESCRIPTION ? text : text.substring(0, MAX_DESCRIPTION) + "... (cut)";
    }

    /** The longest description sent (in UTF-16 units; percent-encoded, at most 3 bytes each on the wire). */
    static final int MAX_DESCRIPTION = 1_000;

    /** Any failure of a call as the status to answer; unexpected ones are logged here with {@code method}. */
    public static StatusRuntimeException of(Throwable failure, String method) {
        if (failure instanceof ApiException e) {
            return of(e);
        }
        if (failure instanceof KeyStoreUnavailableException e) {
            return of(new ApiException(ErrorCodes.UNAVAILABLE, "cannot check API keys now: " + e.getMessage()));
        }
        if (failure instanceof StatusRuntimeException e) {
            return e;
        }
        log.error("Unexpected error in gRPC call {}: {}", method, failure.toString(), failure);
        return of(new ApiException(ErrorCodes.INTERNAL, "Internal error; see the server log"));
    }
}
