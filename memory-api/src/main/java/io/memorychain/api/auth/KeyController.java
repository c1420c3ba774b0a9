package io.memorychain.api.auth;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** API keys: admins issue, list and revoke them; anyone sees who they are. */
@Controller("/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "keys")
class KeyController {

    private final ApiKeys keys;

    public KeyController(ApiKeys keys) {
        this.keys = keys;
    }

    @ErrorAnswers.Read
    @Get("/me")
    @Operation(
            operationId = "whoAmI",
            summary = "The caller: its role, agent, spaces and the actor its writes are recorded as")
    public KeyJson.Caller me(@Parameter(hidden = true) @RequestAttribute(Principal.ATTRIBUTE) Principal caller) {
        return KeyJson.Caller.of(caller);
    }

    @ErrorAnswers.Write
    @Post("/keys")
    @Operation(
            operationId = "issueKey",
            summary = "Issue an API key (admin)",
            description = "The answer is the only place the key appears.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "ROLE_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<KeyJson> issue(
            @Parameter(hidden = true) @RequestAttribute(Principal.ATTRIBUTE) Principal caller,
            @Nullable @Body NewKeyBody body) {
        ApiKeys.Issued issued = keys.issue(NewKeyBody.principal(body), caller.id());
        return HttpResponse.created(KeyJson.of(issued.record(), issued.key()));
    }

    @ErrorAnswers.Read
    @Get("/keys")
    @Operation(
            operationId = "listKeys",
            summary = "Every API key, revoked ones included (admin); secrets are never shown")
    public KeyJson.Page list() {
        return new KeyJson.Page(
                keys.list().stream().map(r -> KeyJson.of(r, null)).toList());
    }

    @ErrorAnswers.Change
    @Delete("/keys/{keyId}")
    @Operation(
            operationId = "revokeKey",
            summary = "Revoke an API key (admin); every instance refuses it within seconds")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public KeyJson revoke(@PathVariable String keyId) {
        return KeyJson.of(keys.revoke(keyId), null);
    }
}
