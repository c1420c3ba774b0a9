package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import io.micronaut.http.MutableHttpResponse;
import java.util.UUID;
import java.util.regex.Pattern;

/** The optional {@code Idempotency-Key} header becomes the request id; without it a random UUID is used. */
public final class RequestIds {

    public static final String HEADER = "Idempotency-Key";
    /** The response header that tells the caller the request id of its write (to retry with, to find in the audit). */
    public static final String ECHO_HEADER = "X-Request-Id";

    private static final Pattern VALID = Pattern.compile("[\\x21-\\x7E]{1,128}");

    private RequestIds() {}

    public static String fromHeader(String idempotencyKey) {
        if (idempotencyKey == null) {
            return UUID.randomUUID().toString();
        }
        if (!VALID.matcher(idempotencyKey).matches()) {
            throw ApiException.invalid(HEADER + " must be 1 to 128 printable ASCII characters without spaces");
        }
        return idempotencyKey;
    }

    /** {@code response} with the request id in {@link #ECHO_HEADER}. */
    public static <T> MutableHttpResponse<T> echo(MutableHttpResponse<T> response, String requestId) {
        return response.header(ECHO_HEADER, requestId);
    }
}
