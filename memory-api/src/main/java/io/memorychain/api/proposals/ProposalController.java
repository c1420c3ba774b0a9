package io.memorychain.api.proposals;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ProposalDecision;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
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
import java.net.URI;

/**
 * Sub-agent proposals of one space (docs/architecture.md §10): sub-agents propose, the main agent (an agent), a user or
 * an admin commits, rejects or defers. Review actions are custom methods ({@code POST /proposals/{id}:commit}), as for
 * memories.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "proposals")
class ProposalController {

    private final ProposalService proposals;

    public ProposalController(ProposalService proposals) {
        this.proposals = proposals;
    }

    @ErrorAnswers.Write
    @Post("/proposals")
    @Operation(
            operationId = "propose",
            summary = "Propose a memory (sub-agents)",
            description = "The way sub-agents (and agents and workers) "
                    + "write: nothing is written to memory until a reviewer commits it. Answers 201 with the pending proposal "
                    + "and its conflict flags.")
    @ApiResponse(responseCode = "201", description = "Proposed", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (users and admins write directly) or CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "413",
            description = "TOO_LARGE",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProposalWriteJson> propose(@RequestBean WriteCall call, @Nullable @Body ProposalDraft body) {
        WriteContext ctx = call.create();
        ProposalResult result = proposals.propose(ctx, body);
        String id = result.proposal().proposal().getId();
        return written(HttpResponse.created(ProposalWriteJson.of(result)), ctx, result)
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/proposals/" + id)));
    }

    @ErrorAnswers.Read
    @Get("/proposals")
    @Operation(
            operationId = "listProposals",
            summary = "Open proposals (pending and deferred), oldest first, with conflict flags",
            description =
                    "Flags: other open proposals and active memories about the same subject with different content "
                            + "(conflict) or the same content (duplicate). An agent with a category allowlist sees only proposals "
                            + "and memories of its categories.")
    public ProposalListJson list(
            @PathVariable String space, @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        Spaces.require(space);
        return ProposalListJson.of(proposals.open(space, actor));
    }

    @ErrorAnswers.ReadOne
    @Get("/proposals/{id}")
    @Operation(
            operationId = "getProposal",
            summary = "One proposal, whatever its status",
            description = "ETag carries the version (use it in If-Match).")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProposalJson> get(
            @PathVariable String space,
            @PathVariable String id,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        FlaggedProposal proposal = proposals.get(Spaces.require(space), actor, id);
        return HttpResponse.ok(ProposalJson.of(proposal))
                .header(
                        HttpHeaders.ETAG,
                        ExpectedVersions.etag(proposal.proposal().getVersion()));
    }

    @ErrorAnswers.Change
    @Post("/proposals/{id}:commit")
    @Operation(
            operationId = "commitProposal",
            summary = "Commit a proposal to memory (main agent, user or admin)",
            description =
                    "Two events: the "
                            + "resolution by the reviewer, then the memory created by <reviewer type>:commit-from:<proposer>. The body's "
                            + "kind, tier, category, summary, tags, importance, confidence and pinned override the proposed ones.")
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (sub-agents and workers cannot review) or CATEGORY_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED or VERSION_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProposalWriteJson> commit(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ProposalReview body) {
        return review(call, id, body, ProposalDecision.COMMIT);
    }

    @ErrorAnswers.Change
    @Post("/proposals/{id}:reject")
    @Operation(
            operationId = "rejectProposal",
            summary = "Reject a proposal (main agent, user or admin)",
            description = "Body {reason, expected_version}.")
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED or VERSION_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProposalWriteJson> reject(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ProposalReview body) {
        return review(call, id, body, ProposalDecision.REJECT);
    }

    @ErrorAnswers.Change
    @Post("/proposals/{id}:defer")
    @Operation(
            operationId = "deferProposal",
            summary = "Defer a proposal (it stays open)",
            description =
                    "Body {reason, expected_version}: leave it " + "for a later review, e.g. by the reflection engine.")
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED or VERSION_CONFLICT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ProposalWriteJson> defer(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ProposalReview body) {
        return review(call, id, body, ProposalDecision.DEFER);
    }

    private HttpResponse<ProposalWriteJson> review(
            WriteCall call, String id, ProposalReview body, ProposalDecision decision) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        ProposalResult result = proposals.review(ctx, id, decision, body);
        return written(HttpResponse.ok(ProposalWriteJson.of(result)), ctx, result);
    }

    private static MutableHttpResponse<ProposalWriteJson> written(
            MutableHttpResponse<ProposalWriteJson> response, WriteContext ctx, ProposalResult result) {
        return RequestIds.echo(response, ctx.requestId())
                .header(
                        HttpHeaders.ETAG,
                        ExpectedVersions.etag(result.proposal().proposal().getVersion()));
    }
}
