package io.memorychain.api.error;

import io.micronaut.http.HttpStatus;

/** An error answered as {@link ApiError} with the status of its code. Never carries a stack trace to the client. */
public class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;
    private final HttpStatus status;
    private final String requestId;

    public ApiException(String code, String message) {
        this(code, message, null);
    }

    public ApiException(String code, String message, String requestId) {
        this(ErrorCodes.statusOf(code), code, message, requestId);
    }

    public ApiException(HttpStatus status, String code, String message, String requestId) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
        this.requestId = requestId;
    }

    public static ApiException invalid(String message) {
        return new ApiException(ErrorCodes.INVALID_ARGUMENT, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(ErrorCodes.NOT_FOUND, message);
    }

    public String code() {
        return code;
    }

    public HttpStatus status() {
        return status;
    }

    public String requestId() {
        return requestId;
    }

    public ApiError toError() {
        return new ApiError(code, getMessage(), requestId);
    }
}
