package io.memorychain.api.error;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The error answers of each kind of REST operation, for the OpenAPI document: one annotation on a controller method
 * documents every error status its kind can answer, each with the {@link ApiError} body. A method's own
 * {@code @ApiResponse} for a status (a more precise description) wins over the kind's.
 *
 * <p>The kinds: {@link Read} (a list or a view of the space), {@link ReadOne} (a path naming one thing: 404),
 * {@link Write} (a body, no existing thing named: 409, 413, 422) and {@link Change} (a write on a named thing: 404, 409
 * with {@code If-Match} / {@code expected_version}). Every kind is authenticated (401, 403), counts against the key's
 * quota (429) and can meet a moving partition or a timeout (503). SpecContractTest checks that every operation has the
 * answers of its kind.
 */
public final class ErrorAnswers {

    public static final String BAD_REQUEST = "INVALID_ARGUMENT, or a more precise 400 code: UNKNOWN_BLOCK_LABEL, "
            + "INVALID_PATH, INVALID_FILTER, INVALID_CONFIRMATION";
    public static final String UNAUTHORIZED = "UNAUTHENTICATED: no valid Authorization: Bearer API key";
    public static final String FORBIDDEN =
            "SPACE_NOT_ALLOWED or ROLE_NOT_ALLOWED (the key), or the operation's own rule: "
                    + "FORBIDDEN, CONSTITUTIONAL, CATEGORY_NOT_ALLOWED, GRANT_REQUIRED, NOT_IN_REFINEMENT, CONFIRMATION_NOT_YOURS";
    public static final String NOT_FOUND = "NOT_FOUND (also for the ids of other spaces)";
    public static final String CONFLICT =
            "VERSION_CONFLICT (If-Match or expected_version), or INVALID_STATE, HELD_FOR_CONSENT, ALREADY_LINKED, "
                    + "ALREADY_RESOLVED, BUDGET_EXCEEDED, EXPIRED, PATCH_CONFLICT, CHAIN_BROKEN";
    public static final String TOO_LARGE = "TOO_LARGE: the body or the memory text is over its limit";
    public static final String UNPROCESSABLE = "REJECTED, or a rejection code of a newer sequencer passed through";
    public static final String TOO_MANY =
            "RATE_LIMITED: the key is past its requests a second or its writes of the day "
                    + "(memory.quotas), with Retry-After";
    public static final String UNAVAILABLE =
            "TIMEOUT (retry a write with the same Idempotency-Key), UNAVAILABLE or " + "REBALANCING (with Retry-After)";

    private ErrorAnswers() {}

    /** A list or a view of the space (its parameters can be invalid). */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
    @ApiResponse(
            responseCode = "400",
            description = BAD_REQUEST,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "401",
            description = UNAUTHORIZED,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = FORBIDDEN,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "429",
            description = TOO_MANY,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = UNAVAILABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public @interface Read {}

    /** A read of one thing named in the path. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
    @ApiResponse(
            responseCode = "400",
            description = BAD_REQUEST,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "401",
            description = UNAUTHORIZED,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = FORBIDDEN,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = NOT_FOUND,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "429",
            description = TOO_MANY,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = UNAVAILABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public @interface ReadOne {}

    /** A write that names no existing thing in its path (a create, a query with a body, a space-wide action). */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
    @ApiResponse(
            responseCode = "400",
            description = BAD_REQUEST,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "401",
            description = UNAUTHORIZED,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = FORBIDDEN,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = CONFLICT,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "413",
            description = TOO_LARGE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "422",
            description = UNPROCESSABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "429",
            description = TOO_MANY,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = UNAVAILABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public @interface Write {}

    /** A write on a thing named in the path, with optimistic concurrency (If-Match or expected_version). */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
    @ApiResponse(
            responseCode = "400",
            description = BAD_REQUEST,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "401",
            description = UNAUTHORIZED,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = FORBIDDEN,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = NOT_FOUND,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = CONFLICT,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "413",
            description = TOO_LARGE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "422",
            description = UNPROCESSABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "429",
            description = TOO_MANY,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = UNAVAILABLE,
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public @interface Change {}
}
