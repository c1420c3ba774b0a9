package io.memorychain.api.audit;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The audit log of a space: one entry per chain event, oldest first. */
@Controller("/v1/spaces/{space}/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
class AuditController {

    public static final int DEFAULT_LIMIT = AuditLog.DEFAULT_LIMIT;
    public static final int MAX_LIMIT = AuditLog.MAX_LIMIT;

    private final AuditLog log;
    private final AuditDigests digests;

    public AuditController(AuditLog log, AuditDigests digests) {
        this.log = log;
        this.digests = digests;
    }

    @ErrorAnswers.Read
    @Get(produces = {MediaType.APPLICATION_JSON, "text/markdown"})
    @Operation(
            operationId = "listAudit",
            summary = "Audit log entries with seq greater than after_seq, optionally filtered: what changed recently "
                    + "(order=desc), why was a memory forgotten (memory_id), who changed a block (label), what did an actor do "
                    + "(actor), events of some types (type) or in a time range (since, until), a user's history (user_id; "
                    + "user_id=me with a user's key); format=markdown: every matching entry as a Markdown document")
    @ApiResponse(
            responseCode = "200",
            description = "One page of entries (JSON), or every matching entry (Markdown)",
            content = {
                @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = AuditPage.class)),
                @Content(mediaType = "text/markdown", schema = @Schema(type = "string"))
            })
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<?> audit(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @Nullable @QueryValue("after_seq") @Parameter(description = "default 0 (from the start)") Long afterSeq,
            @Nullable @QueryValue @Parameter(description = "1 to 1000, default 100") Integer limit,
            @Nullable @QueryValue("memory_id") @Parameter(description = "entries touching this memory") String memoryId,
            @Nullable
                    @QueryValue("actor")
                    @Parameter(description = "entries by this actor: type:id (agent:assistant) or id")
                    String byActor,
            @Nullable
                    @QueryValue("type")
                    @Parameter(description = "event types, comma-separated (e.g. DecayTransitioned,MemoryExpired)")
                    String type,
            @Nullable @QueryValue("label") @Parameter(description = "entries touching any version of this block")
                    String label,
            @Nullable @QueryValue @Parameter(description = "ISO-8601 date-time, inclusive") String since,
            @Nullable @QueryValue @Parameter(description = "ISO-8601 date-time, exclusive") String until,
            @Nullable
                    @QueryValue
                    @Parameter(
                            description =
                                    "asc (default, paged by after_seq) or desc (the last `limit` matches, newest first)")
                    String order,
            @Nullable
                    @QueryValue("user_id")
                    @Parameter(
                            description =
                                    "entries touching a memory of this user (its user_id); me: the calling user's own")
                    String userId,
            @Nullable
                    @QueryValue
                    @Parameter(description = "json (default: one page) or markdown (every matching entry)")
                    String format) {
        AuditQuery query = AuditQuery.of(memoryId, byActor, type, label, since, until, order)
                .forUser(userId, actor);
        if (InputRules.markdown(format)) {
            return HttpResponse.ok(AuditMarkdown.of(space, query.userId(), log.all(space, actor, query, afterSeq)))
                    .contentType("text/markdown");
        }
        return HttpResponse.ok(log.search(space, actor, query, afterSeq, limit))
                .contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    @ErrorAnswers.Read
    @Get("/digest")
    @Operation(
            operationId = "auditDigest",
            summary = "A month of the audit log summarised: counts by event type and actor, block changes, notable "
                    + "events, and the same as Markdown")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public AuditDigest digest(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @QueryValue @Parameter(description = "YYYY-MM (UTC)") String month) {
        return digests.digest(space, actor, month);
    }
}
