package io.memorychain.api.refinement;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.DeleteMemoryBody;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
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
 * Refinement sessions (docs/architecture.md §9) over REST, a thin layer over {@link RefinementSessions}.
 * {@code {session}} is a session id or {@code current} (the space's open session). The knife operations are accepted
 * only inside the open session (403 NOT_IN_REFINEMENT otherwise) and are ordinary chain events carrying the session id.
 */
@Controller("/v1/spaces/{space}/refinements")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "refinement")
class RefinementController {

    private final RefinementSessions sessions;
    private final MemoryRequests requests;

    public RefinementController(RefinementSessions sessions, MemoryRequests requests) {
        this.sessions = sessions;
        this.requests = requests;
    }

    @ErrorAnswers.Write
    @Post
    @Operation(
            operationId = "startRefinement",
            summary = "Start a refinement session (admin)",
            description =
                    "Exact duplicates (same content hash and tier) "
                            + "are soft-deleted first, content-blind, then the session opens with the ledger, the core tokens and the target.")
    @ApiResponse(responseCode = "201", description = "Started", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN: only admins (and the workers' triggers) start sessions",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "INVALID_STATE: a session is already open",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<RefinementSessionJson> start(
            @RequestBean WriteCall call, @Nullable @Body StartRefinementBody body) {
        WriteContext ctx = call.create();
        SessionView started =
                sessions.start(ctx, body == null ? null : body.targetTokens(), body == null ? null : body.reason());
        return RequestIds.echo(HttpResponse.created(RefinementSessionJson.of(started)), ctx.requestId())
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/refinements/"
                        + started.session().getSessionId())));
    }

    @ErrorAnswers.Read
    @Get
    @Operation(
            operationId = "listRefinements",
            summary = "The space's refinement sessions, oldest first",
            description = "Without ledgers and edits.")
    public RefinementListJson list(@PathVariable String space) {
        Spaces.require(space);
        return new RefinementListJson(
                sessions.sessions(space).stream().map(RefinementSessionJson::of).toList());
    }

    @ErrorAnswers.ReadOne
    @Get("/{session}")
    @Operation(
            operationId = "getRefinement",
            summary = "A refinement session with its ledger and edits",
            description =
                    "current: the open session, with "
                            + "the ledger (id, content, created_at, tags, flags), the core tokens and the target; else any session by id.")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND: no such session (or none open for current)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public RefinementSessionJson get(
            @PathVariable String space,
            @PathVariable String session,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor) {
        Spaces.require(space);
        return RefinementSessionJson.of(sessions.session(space, session, actor));
    }

    @ErrorAnswers.Change
    @Post("/{session}/search")
    @Operation(
            operationId = "searchRefinement",
            summary = "search_memories: keywords and/or a created_at range over the ledger")
    @ApiResponse(
            responseCode = "403",
            description = "NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public RefinementSearchJson search(
            @PathVariable String space,
            @PathVariable String session,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @Nullable @Body RefinementSearchBody body) {
        Spaces.require(space);
        return RefinementSearchJson.of(sessions.search(space, actor, session, body));
    }

    @ErrorAnswers.Change
    @Post("/{session}/consolidations")
    @Operation(
            operationId = "refinementConsolidate",
            summary = "consolidate_memories: many memories become one, atomically",
            description =
                    "The new memory keeps "
                            + "the earliest created_at; the inputs are superseded. One bad id (unknown, inactive, constitutional) changes nothing.")
    @ApiResponse(responseCode = "201", description = "Created", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "403",
            description = "CONSTITUTIONAL or NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> consolidate(
            @RequestBean WriteCall call, @PathVariable String session, @Nullable @Body ConsolidateBody body) {
        WriteContext ctx = call.create();
        WriteResult result = sessions.consolidate(ctx, session, requests.consolidate(ctx.space(), body));
        return RequestIds.echo(HttpResponse.created(WriteResponse.of(result)), ctx.requestId())
                .headers(h -> h.location(URI.create("/v1/spaces/" + ctx.space() + "/memories/"
                        + result.memory().getId())));
    }

    @ErrorAnswers.Change
    @Patch("/{session}/memories/{id}")
    @Operation(
            operationId = "refinementUpdateMemory",
            summary = "update_memory: tighten a memory's phrasing (any field of PATCH /memories/{id})")
    @ApiResponse(
            responseCode = "403",
            description = "NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> update(
            @RequestBean WriteCall call,
            @PathVariable String session,
            @PathVariable String id,
            @Nullable @Body UpdateMemoryBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        WriteResult result = sessions.update(ctx, session, requests.update(id, body));
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(result)), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Delete("/{session}/memories/{id}")
    @Operation(
            operationId = "refinementDeleteMemory",
            summary = "delete_memory: prune an obsolete memory (soft delete)")
    @ApiResponse(
            responseCode = "403",
            description = "CONSTITUTIONAL or NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> delete(
            @RequestBean WriteCall call,
            @PathVariable String session,
            @PathVariable String id,
            @Nullable @Body DeleteMemoryBody body) {
        WriteContext ctx = call.change(body == null ? null : body.expectedVersion());
        WriteResult result = sessions.delete(ctx, session, id, body == null ? null : body.reason());
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(result)), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/{session}/memories/{id}:protect")
    @Operation(
            operationId = "refinementProtectMemory",
            summary = "protect_memory: make a memory constitutional",
            description = "Constitutional memories cannot be "
                    + "deleted or consolidated by agents; only an admin unprotects them.")
    @ApiResponse(
            responseCode = "403",
            description = "NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<WriteResponse> protect(
            @RequestBean WriteCall call, @PathVariable String session, @PathVariable String id) {
        WriteContext ctx = call.change(null);
        return RequestIds.echo(HttpResponse.ok(WriteResponse.of(sessions.protect(ctx, session, id))), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/{session}:complete")
    @Operation(
            operationId = "completeRefinement",
            summary = "complete_refinement: end the session and record its outcome",
            description =
                    "Writes " + "RefinementCompleted (counts, tokens before/after, summary line) and a journal memory.")
    @ApiResponse(
            responseCode = "403",
            description = "NOT_IN_REFINEMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<CompletionJson> complete(
            @RequestBean WriteCall call, @PathVariable String session, @Nullable @Body CompleteRefinementBody body) {
        WriteContext ctx = call.create();
        if (body == null) {
            throw ApiException.invalid("A JSON body {\"summary\": ...} is required");
        }
        return RequestIds.echo(
                HttpResponse.ok(CompletionJson.of(sessions.complete(ctx, session, body.summary()))), ctx.requestId());
    }
}
