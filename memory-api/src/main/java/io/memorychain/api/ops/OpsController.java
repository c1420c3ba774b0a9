package io.memorychain.api.ops;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Operational event counts of a space (seed 004 section 14): what the memory system did, and when. */
@Controller("/v1/spaces/{space}/ops")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
class OpsController {

    private final OpsCountsService counts;

    public OpsController(OpsCountsService counts) {
        this.counts = counts;
    }

    @ErrorAnswers.Read
    @Get
    @Operation(
            operationId = "listOps",
            summary =
                    "Counts of operational events (searches, creates, updates, merges, deletes, links, TTL, "
                            + "purges; ok, error or skipped) by hour or day, node, op and status; metadata only, admins may read it")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = "UNAVAILABLE",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public OpsCountsService.OpsPage ops(
            @PathVariable String space,
            @Nullable @QueryValue @Parameter(description = "ISO-8601 date-time, inclusive (default: until - 24 h)")
                    String since,
            @Nullable
                    @QueryValue
                    @Parameter(description = "ISO-8601 date-time, exclusive (default: the end of the current bucket)")
                    String until,
            @Nullable @QueryValue @Parameter(description = "hour (default) or day (UTC)") String bucket) {
        return counts.counts(space, since, until, bucket);
    }
}
