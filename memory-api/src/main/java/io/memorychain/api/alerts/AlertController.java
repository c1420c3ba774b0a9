package io.memorychain.api.alerts;

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
 * Critical-change alerts of one space (docs/architecture.md §21): a change of a critical block (persona, critical) by
 * an actor that is neither the user, an admin nor an approved reflection. Shown by /context until acknowledged.
 */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "alerts")
class AlertController {

    /** The body of {@code POST /alerts/{id}:acknowledge}. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "AcknowledgeAlert")
    public record AckBody(
            @Nullable @Schema(description = "Why, e.g. 'intentional'")
            String reason) {}

    /** The alerts of a space. */
    @Serdeable
    @Schema(name = "AlertList")
    public record Alerts(List<AlertJson> items) {}

    private final AlertService alerts;

    public AlertController(AlertService alerts) {
        this.alerts = alerts;
    }

    @ErrorAnswers.Read
    @Get("/alerts")
    @Operation(
            operationId = "listAlerts",
            summary = "Critical-change alerts",
            description = "Oldest first; ?unacknowledged=true for the ones " + "/context shows.")
    public Alerts list(@PathVariable String space, @Nullable @QueryValue Boolean unacknowledged) {
        return new Alerts(alerts.alerts(Spaces.require(space), Boolean.TRUE.equals(unacknowledged)));
    }

    @ErrorAnswers.Change
    @Post("/alerts/{id}:acknowledge")
    @Operation(operationId = "acknowledgeAlert", summary = "Acknowledge an alert (a user or an admin)")
    @ApiResponse(
            responseCode = "403",
            description = "FORBIDDEN (agents, workers, sub-agents)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "404",
            description = "NOT_FOUND",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "409",
            description = "ALREADY_RESOLVED (acknowledged before)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<AlertJson> acknowledge(
            @RequestBean WriteCall call, @PathVariable String id, @Nullable @Body AckBody body) {
        WriteContext ctx = call.create();
        return RequestIds.echo(
                HttpResponse.ok(alerts.acknowledge(ctx, id, body == null ? null : body.reason())), ctx.requestId());
    }
}
