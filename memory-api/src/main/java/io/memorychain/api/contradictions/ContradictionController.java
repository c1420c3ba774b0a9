package io.memorychain.api.contradictions;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Contradictions of one space (docs/architecture.md §10, seed 001 §13.6): two memories or proposals flagged as
 * contradicting each other (by the service when a memory or a proposal is written, or by a caller), and their
 * resolution ({@code POST /contradictions/{id}:resolve}): one_wins, keep_both or ask_user.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "contradictions")
class ContradictionController {

    private final ContradictionService contradictions;

    public ContradictionController(ContradictionService contradictions) {
        this.contradictions = contradictions;
    }

    @ErrorAnswers.Read
    @Get("/contradictions")
    @Operation(
            operationId = "listContradictions",
            summary = "Contradictions between memories or proposals, oldest first",
            description = "?state=open (default: unresolved, and asked of the user but not answered) or all. A caller "
                    + "confined by a category allowlist sees only those whose both sides it may read.")
    public ContradictionListJson list(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader,
            @Nullable @QueryValue String state) {
        return contradictions.list(Spaces.require(space), reader, state);
    }

    @ErrorAnswers.Write
    @Post("/contradictions")
    @Operation(
            operationId = "flagContradiction",
            summary = "Flag two memories or proposals as contradicting each other",
            description = "Agents, users, admins and workers (sub-agents are FORBIDDEN). Both sides must be active "
                    + "memories (not blocks) or open proposals, and the pair not flagged already (INVALID_STATE names "
                    + "the open contradiction). Both are flagged until the contradiction is resolved.")
    @ApiResponse(responseCode = "201", description = "Flagged", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND (a side)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE (a side not active or open, or the pair already flagged)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ContradictionJson> flag(
            @RequestBean WriteCall call, @Nullable @Body FlagContradictionBody body) {
        WriteContext ctx = call.create();
        ContradictionJson flagged = contradictions.flag(ctx, body);
        return RequestIds.echo(HttpResponse.created(flagged), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/contradictions/{id}:resolve")
    @Operation(
            operationId = "resolveContradiction",
            summary = "Resolve a contradiction (main agent, user or admin)",
            description = "one_wins (winner_id: the other side is superseded by it, or rejected when a proposal), "
                    + "keep_both (both kept at low confidence, a proposal side committed so, and linked contradicts "
                    + "both ways, which recall shows) or ask_user (it stays open and /context asks the user until it "
                    + "is resolved otherwise). The resolution and its effects are one decision, in the audit.")
    @ApiResponse(
            responseCode = "403",
            description =
                    "FORBIDDEN (workers and sub-agents), CONSTITUTIONAL (an agent superseding a constitutional memory) or CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description =
                    "ALREADY_RESOLVED (one_wins or keep_both before), or INVALID_STATE (a side no longer active or open; ask_user twice)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ContradictionJson> resolve(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ResolveContradictionBody body) {
        WriteContext ctx = call.create();
        return RequestIds.echo(HttpResponse.ok(contradictions.resolve(ctx, id, body)), ctx.requestId());
    }
}
