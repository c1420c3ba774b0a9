package io.memorychain.api.quota;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;

/** 429 {@code RATE_LIMITED}: the key asked more than its quota; {@link #retryAfterSeconds()} says when to try again. */
public final class QuotaExceededException extends ApiException {

    private static final long serialVersionUID = 1L;

    private final long retryAfterSeconds;

    QuotaExceededException(String message, long retryAfterSeconds) {
        super(ErrorCodes.RATE_LIMITED, message + "; retry after " + retryAfterSeconds + " s");
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Whole seconds, at least 1: the {@code Retry-After} header's value. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
