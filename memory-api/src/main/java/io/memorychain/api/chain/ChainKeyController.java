package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** A space's chain signing key: rotation and compromise marks (docs/architecture.md §4). Admins only. */
@Controller("/v1/spaces/{space}/chain")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
class ChainKeyController {

    /** Body of {@code :rotate}: the key to rotate to (omitted: a new key in the service's key directory) and why. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "RotateChainKey")
    public record RotateBody(
            @Nullable
            @Schema(name = "key_id", description = "A provisioned key's id (16 hex digits); omitted: a new key")
            @JsonProperty("key_id")
            String keyId,

            @Nullable @Schema(description = "Why, kept on the chain")
            String reason) {}

    /** Body of {@code :compromised}: the last seq the key is trusted for on this chain, and why. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "MarkChainKeyCompromised")
    public record CompromisedBody(
            @Nullable
            @Schema(name = "from_seq", description = "The key's events after this seq are suspect")
            @JsonProperty("from_seq")
            Long fromSeq,

            @Nullable @Schema(description = "Why; required, kept on the chain")
            String reason) {}

    private final ChainKeyRotations rotations;

    public ChainKeyController(ChainKeyRotations rotations) {
        this.rotations = rotations;
    }

    @ErrorAnswers.Change
    @Post("/keys:rotate")
    @Operation(
            operationId = "rotateChainKey",
            summary = "Rotate the space's chain signing key (admins)",
            description =
                    "Appends "
                            + "SigningKeyRotated, signed by the key it replaces, naming the new key id and public key; every later event of "
                            + "the space is signed by the new key. Without key_id the service makes a new key in its key directory.")
    @ApiResponse(responseCode = "200", description = "The rotation event's seq and the new key id")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: key_id is not 16 lower-case hex digits",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN: not an admin",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: the space has no chain yet, or the sequencer holds no private key with that id",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: the key already signs this space",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ChainKeyChange> rotate(@RequestBean WriteCall call, @Nullable @Body RotateBody body) {
        WriteContext ctx = call.change(null);
        return RequestIds.echo(
                HttpResponse.ok(
                        rotations.rotate(ctx, body == null ? null : body.keyId(), body == null ? null : body.reason())),
                ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/keys/{keyId}:compromised")
    @Operation(
            operationId = "markChainKeyCompromised",
            summary = "Mark a signing key compromised on this chain (admins)",
            description =
                    "Appends SigningKeyCompromised: verifiers report the key's events on this chain after from_seq as "
                            + "suspect. The space's current key cannot be marked: rotate first.")
    @ApiResponse(responseCode = "200", description = "The mark's seq, the key and the last seq it is trusted for")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: key id, from_seq (beyond the head) or reason",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN: not an admin",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: the space has no chain yet, or the key never signed it",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: the key signs this space now",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ChainKeyChange> compromised(
            @RequestBean WriteCall call, @PathVariable String keyId, @Nullable @Body CompromisedBody body) {
        WriteContext ctx = call.change(null);
        return RequestIds.echo(
                HttpResponse.ok(rotations.markCompromised(
                        ctx, keyId, body == null ? null : body.fromSeq(), body == null ? null : body.reason())),
                ctx.requestId());
    }
}
