package io.memorychain.api.audit;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.view.AuditEntry;
import jakarta.inject.Singleton;
import java.util.List;

/** Pages of a space's audit log (REST {@link AuditController} and gRPC): one entry per chain event, oldest first. */
@Singleton
public class AuditLog {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1_000;

    private final MemoryBackend backend;

    public AuditLog(MemoryBackend backend) {
        this.backend = backend;
    }

    /**
     * @param afterSeq entries with a greater seq (null: 0, from the start)
     * @param limit    1 to {@link #MAX_LIMIT} (null: {@link #DEFAULT_LIMIT})
     */
    public AuditPage page(String space, Long afterSeq, Integer limit) {
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
