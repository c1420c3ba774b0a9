package io.memorychain.api.reflections;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteCall;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.MemoryOutcome;
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
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The reflection engine of one space (docs/architecture.md §18): the reflection log and evolution record, the manual
 * trigger, and the decision on a pending reflection ({@code POST /reflections/{id}:decide}). Reflections are never
 * applied without a decision.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "reflections")
class ReflectionController {

    /** The manual trigger's body. */
    @Serdeable
    @Schema(name = "RequestReflection")
    public record RequestBody(
            @Nullable @Schema(description = "Why, e.g. the user said 'reflect on your memories'")
            String reason) {}

    /** The manual trigger's answer. */
    @Serdeable
    @Schema(name = "ReflectionRequested")
    public record Requested(
            @Schema(name = "request_id") @JsonProperty("request_id")
            String requestId,

            long seq) {}

    private final ReflectionService reflections;

    public ReflectionController(ReflectionService reflections) {
        this.reflections = reflections;
    }

    @ErrorAnswers.Read
    @Get("/reflections")
    @Operation(
            operationId = "listReflections",
            summary = "The reflection log and evolution record",
            description = "Every reflection, oldest first "
                    + "(?status=pending for the pending ones), with its changes and decision; evolution: the insights of the "
                    + "approved reflections.")
    public ReflectionLogJson list(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader,
            @Nullable @QueryValue String status) {
        return reflections.log(Spaces.require(space), reader, status);
    }

    @ErrorAnswers.ReadOne
    @Get("/reflections/{id}")
    @Operation(operationId = "getReflection", summary = "One reflection, pending or decided")
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public ReflectionJson get(
            @PathVariable String space,
            @PathVariable String id,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader) {
        return ReflectionJson.of(reflections.get(Spaces.require(space), id, reader));
    }

    @ErrorAnswers.Write
    @Post("/reflections")
    @Operation(
            operationId = "requestReflection",
            summary = "Ask for a reflection (the manual trigger)",
            description = "Records ReflectionRequested; the "
                    + "reflection worker answers with a pending reflection (none while another is pending).")
    @ApiResponse(responseCode = "202", description = "Requested", useReturnTypeSchema = true)
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (workers and sub-agents)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<Requested> request(@RequestBean WriteCall call, @Nullable @Body RequestBody body) {
        WriteContext ctx = call.create();
        MemoryOutcome outcome = reflections.request(ctx, body == null ? null : body.reason());
        return RequestIds.echo(
                HttpResponse.accepted().body(new Requested(ctx.requestId(), outcome.getSeq())), ctx.requestId());
    }

    @ErrorAnswers.Change
    @Post("/reflections/{id}:decide")
    @Operation(
            operationId = "decideReflection",
            summary = "Decide a pending reflection (the agent or the user)",
            description = "approve, "
                    + "approve_with_changes, partial or reject; the approved changes are applied atomically with the decision, "
                    + "as ordinary events by <decider type>:reflection:<id>. A reflection is decided once.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT (e.g. a change id not in the reflection)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (workers, admins, sub-agents)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED, or INVALID_STATE / ALREADY_LINKED when a change no longer applies",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<ReflectionJson> decide(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body ReflectionDecisionBody body) {
        WriteContext ctx = call.create();
        return RequestIds.echo(HttpResponse.ok(ReflectionJson.of(reflections.decide(ctx, id, body))), ctx.requestId());
    }
}
