package io.memorychain.api.grants;

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
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;

/**
 * Mechanic's Exception grants of one space (docs/architecture.md §13): an admin asks to read content for a purpose and
 * a bounded time, the space's agent or user consents ({@code :consent}) or declines ({@code :revoke}), and every
 * content read under the grant is on the chain and listed at {@code /grants/{id}/reads}.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "grants")
class GrantController {

    /** The revocation's body. */
    @Serdeable
    @Schema(name = "RevokeGrant")
    public record RevokeBody(
            @Nullable @Schema(description = "Why") String reason) {}

    /** The grants of a space. */
    @Serdeable
    @Schema(name = "GrantList")
    public record GrantList(List<GrantJson> items) {}

    private final GrantService grants;

    public GrantController(GrantService grants) {
        this.grants = grants;
    }

    @ErrorAnswers.Write
    @Post("/grants")
    @Operation(
            operationId = "requestGrant",
            summary = "Ask for a grant to read content (admins)",
            description = "Time-limited (duration_seconds, at "
                    + "most 24 h from the consent), purpose-bound, of the whole space or some memories; gives nothing until the "
                    + "space's agent or user consents.")
    @ApiResponse(responseCode = "201", description = "Requested (pending)", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT (no purpose, duration out of range)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (not an admin)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<GrantJson> request(@RequestBean WriteCall call, @Nullable @Body GrantBody body) {
        WriteContext ctx = call.create();
        GrantJson grant = grants.request(ctx, body);
        return RequestIds.echo(HttpResponse.created(grant), ctx.requestId())
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/grants/" + grant.id())));
    }

    @ErrorAnswers.Read
    @Get("/grants")
    @Operation(
            operationId = "listGrants",
            summary = "The space's grants, oldest first",
            description = "status is pending, active, expired " + "(computed now) or revoked.")
    public GrantList list(@PathVariable String space) {
        return new GrantList(grants.list(Spaces.require(space)));
    }

    @ErrorAnswers.ReadOne
    @Get("/grants/{id}")
    @Operation(operationId = "getGrant", summary = "One grant")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public GrantJson get(@PathVariable String space, @PathVariable String id) {
        return grants.get(Spaces.require(space), id);
    }

    @ErrorAnswers.Change
    @Post("/grants/{id}:consent")
    @Operation(
            operationId = "consentGrant",
            summary = "Consent to a grant (the space's agent or user)",
            description = "It expires by itself at the " + "consent time + its duration.")
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (admins, workers, sub-agents, the grantee)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<GrantJson> consent(@RequestBean WriteCall call, @PathVariable String id) {
        WriteContext ctx = call.create();
        return RequestIds.echo(HttpResponse.ok(grants.consent(ctx, id)), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/grants/{id}:revoke")
    @Operation(
            operationId = "revokeGrant",
            summary = "Revoke or decline a grant (the space's agent or user, or the grantee)",
            description = "Reads " + "under it stop at once.")
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED (revoked), INVALID_STATE (expired)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<GrantJson> revoke(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body RevokeBody body) {
        WriteContext ctx = call.create();
        return RequestIds.echo(
                HttpResponse.ok(grants.revoke(ctx, id, body == null ? null : body.reason())), ctx.requestId());
    }

    @ErrorAnswers.ReadOne
    @Get("/grants/{id}/reads")
    @Operation(
            operationId = "grantReads",
            summary = "The content reads recorded under a grant, oldest first",
            description = "Each is a " + "GrantedContentRead event of the chain (also in /audit).")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public GrantReadJson.Page reads(@PathVariable String space, @PathVariable String id) {
        return grants.reads(Spaces.require(space), id);
    }
}
