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
        @Schema(description = "Stable error code, with its HTTP status: " + CODES)
        String code,

        @Schema(description = "Human-readable explanation") String message,

        @Nullable
        @JsonProperty("request_id")
        @Schema(
                name = "request_id",
                description = "The request id (Idempotency-Key) of a write, when one was made",
                nullable = true)
        String requestId) {

    /**
     * Every code the API answers with (ErrorCodes), for the OpenAPI document; SpecContractTest checks it is complete.
     */
    static final String CODES =
            "INVALID_ARGUMENT, UNKNOWN_BLOCK_LABEL, INVALID_PATH, INVALID_FILTER, INVALID_CONFIRMATION (400); "
                    + "UNAUTHENTICATED (401); FORBIDDEN, SPACE_NOT_ALLOWED, ROLE_NOT_ALLOWED, CONSTITUTIONAL, NOT_IN_REFINEMENT, "
                    + "CATEGORY_NOT_ALLOWED, GRANT_REQUIRED, CONFIRMATION_NOT_YOURS (403); NOT_FOUND (404); METHOD_NOT_ALLOWED (405); "
                    + "NOT_ACCEPTABLE (406); VERSION_CONFLICT, INVALID_STATE, HELD_FOR_CONSENT, ALREADY_LINKED, ALREADY_RESOLVED, BUDGET_EXCEEDED, "
                    + "EXPIRED, PATCH_CONFLICT, CHAIN_BROKEN (409); TOO_LARGE (413); UNSUPPORTED_MEDIA_TYPE (415); "
                    + "NOT_OWNER (421, gRPC, MCP and the change stream GET /changes only); REJECTED, or a rejection code of a newer sequencer (422); RATE_LIMITED (429); "
                    + "INTERNAL (500); NOT_AVAILABLE (501); TIMEOUT, UNAVAILABLE, REBALANCING (503). "
                    + "Clients should accept codes not listed here.";

    public static ApiError of(String code, String message) {
        return new ApiError(code, message, null);
    }
}
