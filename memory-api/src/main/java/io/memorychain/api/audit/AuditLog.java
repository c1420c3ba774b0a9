package io.memorychain.api.audit;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.projector.view.MemoryViews;
import jakarta.inject.Singleton;
import java.util.List;

/** Pages of a space's audit log (REST {@link AuditController} and gRPC): one entry per chain event, oldest first. */
@Singleton
public class AuditLog {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1_000;

    /** The description of an entry about a memory its reader may not read (descriptions carry content excerpts). */
    static final String HIDDEN = "(details hidden: a memory of a category this caller may not read)";

    private final MemoryBackend backend;
    private final CategoryReads categories;

    public AuditLog(MemoryBackend backend, CategoryReads categories) {
        this.backend = backend;
        this.categories = categories;
    }

    /**
     * @param afterSeq entries with a greater seq (null: 0, from the start)
     * @param limit    1 to {@link #MAX_LIMIT} (null: {@link #DEFAULT_LIMIT})
     */
    public AuditPage page(String space, Actor reader, Long afterSeq, Integer limit) {
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
        return new AuditPage(entries.stream().map(e -> entry(space, reader, e)).toList(), next);
    }

    /**
     * The entry as {@code reader} may see it: for an agent confined by a category allowlist, an event about a memory
     * (or proposal) of a category it may not read keeps its seq, type, actor, ids and hash but not its description.
     * The category is the memory's current one.
     */
    public AuditEntryJson entry(String space, Actor reader, AuditEntry e) {
        AuditEntryJson json = AuditEntryJson.of(e);
        if (categories.listable(reader) == null
                || e.getMemoryIds().stream().allMatch(id -> categories.readable(reader, category(space, id)))) {
            return json;
        }
        return new AuditEntryJson(json.seq(), json.eventType(), json.requestId(), json.actor(), json.occurredAt(),
                json.memoryIds(), HIDDEN, json.hash());
    }

    private String category(String space, String id) {
        MemoryViews views = backend.views();
        return views.memory(space, id).map(Memory::getCategory)
                .or(() -> views.proposal(space, id).map(p -> p.getProposal().getCategory())).orElse(null);
    }
}
