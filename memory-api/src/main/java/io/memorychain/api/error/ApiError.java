package io.memorychain.api.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The body of every error response: a stable code, a human message, and the request id for writes. */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Error", description = "Every non-2xx answer has this body.")
public record ApiError(
        @Schema(description = "Stable error code, e.g. INVALID_ARGUMENT, NOT_FOUND, VERSION_CONFLICT, CONSTITUTIONAL, TOO_LARGE, TIMEOUT")
        String code,
        @Schema(description = "Human-readable explanation")
        String message,
        @Nullable @JsonProperty("request_id")
        @Schema(description = "The request id (Idempotency-Key) of a write, when one was made", nullable = true)
        String requestId) {

    public static ApiError of(String code, String message) {
        return new ApiError(code, message, null);
    }
}
