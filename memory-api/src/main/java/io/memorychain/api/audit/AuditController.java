package io.memorychain.api.audit;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.view.AuditEntry;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;

/** The audit log of a space: one entry per chain event, oldest first. */
@Controller("/v1/spaces/{space}/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
public class AuditController {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1_000;

    private final MemoryBackend backend;

    public AuditController(MemoryBackend backend) {
        this.backend = backend;
    }

    @Get
    @Operation(summary = "Audit log entries with seq greater than after_seq")
    public AuditPage audit(@PathVariable String space,
                           @Nullable @QueryValue("after_seq") @Parameter(description = "default 0 (from the start)") Long afterSeq,
                           @Nullable @QueryValue @Parameter(description = "1 to 1000, default 100") Integer limit) {
        Spaces.require(space);
        long after = afterSeq == null ? 0 : afterSeq;
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (after < 0) {
            throw ApiException.invalid("after_seq must be 0 or more, was " + after);
        }
        if (max < 1 || max > MAX_LIMIT) {
            throw ApiException.invalid("limit must be between 1 and " + MAX_LIMIT + ", was " + max);
        }
        List<AuditEntry> entries = backend.views().audit(space, after, max);
        Long next = entries.size() < max ? null : entries.get(entries.size() - 1).getSeq();
        return new AuditPage(entries.stream().map(AuditEntryJson::of).toList(), next);
    }
}
