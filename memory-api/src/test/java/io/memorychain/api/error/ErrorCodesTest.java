package io.memorychain.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.HttpStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorCodesTest {

    @ParameterizedTest
    @CsvSource({
        "INVALID_ARGUMENT, 400",
        "UNKNOWN_BLOCK_LABEL, 400",
        "FORBIDDEN, 403",
        "CONSTITUTIONAL, 403",
        "NOT_IN_REFINEMENT, 403",
        "CATEGORY_NOT_ALLOWED, 403",
        "NOT_FOUND, 404",
        "VERSION_CONFLICT, 409",
        "INVALID_STATE, 409",
        "BUDGET_EXCEEDED, 409",
        "ALREADY_RESOLVED, 409",
        "TOO_LARGE, 413",
        "INVALID_CONFIRMATION, 400",
        "CONFIRMATION_NOT_YOURS, 403",
        "UNAUTHENTICATED, 401",
        "SPACE_NOT_ALLOWED, 403",
        "ROLE_NOT_ALLOWED, 403",
        "TIMEOUT, 503",
        "UNAVAILABLE, 503",
        "REBALANCING, 503",
        "NOT_OWNER, 421",
        "NOT_AVAILABLE, 501",
        "INTERNAL, 500"
    })
    void mapsEachSequencerAndApiCodeToItsStatus(String code, int status) {
        assertThat(ErrorCodes.statusOf(code).getCode()).isEqualTo(status);
    }

    @ParameterizedTest
    @CsvSource({"SOMETHING_NEW", "''"})
    void answersUnknownRejectionCodesWith422(String code) {
        assertThat((Object) ErrorCodes.statusOf(code)).isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
        assertThat((Object) ErrorCodes.statusOf(null)).isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
    }

    @ParameterizedTest
    @CsvSource({
        "BAD_REQUEST, INVALID_ARGUMENT",
        "NOT_FOUND, NOT_FOUND",
        "METHOD_NOT_ALLOWED, METHOD_NOT_ALLOWED",
        "UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_MEDIA_TYPE",
        "REQUEST_ENTITY_TOO_LARGE, TOO_LARGE",
        "INTERNAL_SERVER_ERROR, INTERNAL",
        "SERVICE_UNAVAILABLE, UNAVAILABLE"
    })
    void givesFrameworkErrorsACode(HttpStatus status, String code) {
        assertThat(ErrorCodes.codeOf(status)).isEqualTo(code);
    }

    @org.junit.jupiter.api.Test
    void apiExceptionsCarryNoStackTraceAndKeepTheRequestId() {
        ApiException e = new ApiException(ErrorCodes.CONSTITUTIONAL, "protected", "r-1");
        assertThat(e.getStackTrace()).isEmpty();
        assertThat((Object) e.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(e.toError()).isEqualTo(new ApiError("CONSTITUTIONAL", "protected", "r-1"));
    }

    @org.junit.jupiter.api.Test
    void keepsOnlyTheFirstLineOfFrameworkMessages() {
        assertThat(ApiErrorResponseProcessor.sanitize("Bad thing\n\tat io.micronaut.Foo"))
                .isEqualTo("Bad thing");
        assertThat(ApiErrorResponseProcessor.sanitize("x".repeat(600))).hasSize(503);
    }
}
