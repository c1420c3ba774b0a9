package io.memorychain.api.audit;

import io.memorychain.api.auth.Principal;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The audit log of a space: one entry per chain event, oldest first. */
@Controller("/v1/spaces/{space}/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
public class AuditController {

    public static final int DEFAULT_LIMIT = AuditLog.DEFAULT_LIMIT;
    public static final int MAX_LIMIT = AuditLog.MAX_LIMIT;

    private final AuditLog log;

    public AuditController(AuditLog log) {
        this.log = log;
    }

    @Get
    @Operation(summary = "Audit log entries with seq greater than after_seq")
    public AuditPage audit(@PathVariable String space,
                           @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
                           @Nullable @QueryValue("after_seq") @Parameter(description = "default 0 (from the start)") Long afterSeq,
                           @Nullable @QueryValue @Parameter(description = "1 to 1000, default 100") Integer limit) {
        return log.page(space, actor, afterSeq, limit);
    }
}
