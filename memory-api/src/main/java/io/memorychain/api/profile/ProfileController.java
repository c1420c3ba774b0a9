package io.memorychain.api.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;

/**
 * The user profile of one space and its consent requests (docs/architecture.md §21, seed 004 §10): sensitive fields
 * change only with the user's consent, benign ones when corroborated.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "profile")
class ProfileController {

    /** The body of {@code PUT /profile/{field}}. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "SetProfileField")
    public record SetBody(
            @Schema(description = "The new value (not blank, <= 1,000 characters)")
            String value,

            @Nullable @Schema(description = "Where it was seen (chat, tom, ...): with the caller, the signal")
            String source,

            @Nullable @Schema(description = "high, medium (default) or low")
            String confidence,

            @Nullable String reason) {}

    /** The body of {@code POST /consents/{id}:decide}. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "DecideConsent")
    public record DecideBody(
            @Schema(description = "true applies the proposed value, false refuses it")
            Boolean grant,

            @Nullable String reason) {}

    /** The consent requests of a space. */
    @Serdeable
    @Schema(name = "ConsentList")
    public record Consents(List<ConsentJson> items) {}

    private final ProfileService profiles;

    public ProfileController(ProfileService profiles) {
        this.profiles = profiles;
    }

    @ErrorAnswers.Read
    @Get("/profile")
    @Operation(
            operationId = "getProfile",
            summary = "The user profile",
            description =
                    "Every field with who set it and why, and the benign values " + "waiting for a second signal.")
    public ProfileJson profile(@PathVariable String space) {
        return profiles.profile(Spaces.require(space));
    }

    @ErrorAnswers.ReadOne
    @Get("/profile/{field}")
    @Operation(operationId = "getProfileField", summary = "One profile field")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND (not set)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public ProfileJson.Field field(@PathVariable String space, @PathVariable String field) {
        return profiles.field(Spaces.require(space), field);
    }

    @ErrorAnswers.Change
    @Put("/profile/{field}")
    @Operation(
            operationId = "setProfileField",
            summary = "Set a profile field",
            description =
                    "A user key applies it at once. Anyone else: a sensitive "
                            + "field (preferred_name, pronouns, city, language, and any field not configured benign) becomes a consent "
                            + "request the user grants within 7 days (202); a benign field applies when two distinct signals (caller "
                            + "or source differ) proposed the same value, or worker:tom with confidence high (200), else it waits (202).")
    @ApiResponse(responseCode = "200", description = "applied", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "202",
            description = "consent_requested or awaiting_corroboration",
            useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT (malformed field name, blank value)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description =
                    "INVALID_STATE (already this value, the same signal again, or the value already awaits consent)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProfileWriteJson> set(
            @RequestBean WriteCall call, @PathVariable String field, @Nullable @Body SetBody body) {
        WriteContext ctx = call.create();
        ProfileService.Written w = profiles.set(
                ctx,
                field,
                body == null ? null : body.value(),
                body == null ? null : body.source(),
                body == null ? null : body.confidence(),
                body == null ? null : body.reason());
        ProfileWriteJson answer = profiles.answer(w);
        io.micronaut.http.MutableHttpResponse<ProfileWriteJson> response = w.result() == ProfileService.Result.APPLIED
                ? HttpResponse.ok(answer)
                : HttpResponse.accepted().body(answer);
        return RequestIds.echo(response, ctx.requestId());
    }

    @ErrorAnswers.Read
    @Get("/consents")
    @Operation(
            operationId = "listConsents",
            summary = "Consent requests, pending and decided",
            description = "Oldest first; ?status=pending, granted, " + "denied or expired.")
    public Consents consents(@PathVariable String space, @Nullable @QueryValue String status) {
        return new Consents(profiles.consents(Spaces.require(space), status));
    }

    @ErrorAnswers.Change
    @Post("/consents/{id}:decide")
    @Operation(
            operationId = "decideConsent",
            summary = "Grant or deny a consent request (the user only)",
            description = "A grant applies the field in "
                    + "the same transaction; a denial changes nothing. Both are in the audit.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT (grant missing)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (not a user key)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND (unknown id, or another space's)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED, or EXPIRED (a grant after 7 days)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ConsentJson> decide(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body DecideBody body) {
        WriteContext ctx = call.create();
        ConsentJson decided =
                profiles.decide(ctx, id, body == null ? null : body.grant(), body == null ? null : body.reason());
        return RequestIds.echo(HttpResponse.ok(decided), ctx.requestId());
    }
}
