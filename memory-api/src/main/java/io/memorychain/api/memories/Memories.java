package io.memorychain.api.memories;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The memory operations of a space, transport-neutral: REST ({@link MemoryController}, {@link ConsolidationController})
 * and gRPC call the same methods, so their rules cannot drift. Writes go through the {@link WriteExecutor}
 * (read-your-writes); reads answer from the local views with the reader's category allowlist applied.
 */
@Singleton
public class Memories {

    public static final int DEFAULT_LIMIT = 50;

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final MemoryRequests requests;
    private final CategoryReads categories;

    public Memories(ChainReads backend, WriteExecutor writes, MemoryRequests requests, CategoryReads categories) {
        this.backend = backend;
        this.writes = writes;
        this.requests = requests;
        this.categories = categories;
    }

    public WriteResult create(WriteContext ctx, CreateMemoryBody body) {
        return writes.execute(ctx, requests.create(body));
    }

    /** Any memory of the space, whatever its state; 404 NOT_FOUND, or 403 CATEGORY_NOT_ALLOWED for the reader. */
    public Memory get(String space, String id, Actor reader) {
        return categories.requireReadable(reader, find(Spaces.require(space), id));
    }

    /** One page in id (creation) order; no state = active only; limit 1..500 (null: {@link #DEFAULT_LIMIT}). */
    public Page<Memory> list(
            String space, Actor reader, String kind, String category, String state, String after, Integer limit) {
        Spaces.require(space);
        ListQuery query;
        try {
            query = new ListQuery(
                    Enums.parse(MemoryKind.class, "kind", kind),
                    category,
                    Enums.parse(MemoryState.class, "state", state),
                    after,
                    limit == null ? DEFAULT_LIMIT : limit,
                    categories.listable(reader));
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(e.getMessage());
        }
        categories.requireReadable(reader, category);
        return backend.views().list(space, query);
    }

    public WriteResult update(WriteContext ctx, String id, UpdateMemoryBody body) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, requests.update(id, body));
    }

    /** Soft delete. */
    public WriteResult delete(WriteContext ctx, String id, String reason) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, requests.delete(id, reason));
    }

    public WriteResult restore(WriteContext ctx, String id) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, requests.restore(id));
    }

    /** Protect/unprotect ({@link MemoryFlag#CONSTITUTIONAL}) and pin/unpin ({@link MemoryFlag#PINNED}). */
    public WriteResult flag(WriteContext ctx, String id, MemoryFlag flag, boolean value) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, requests.flag(id, flag, value));
    }

    public WriteResult consolidate(WriteContext ctx, ConsolidateBody body) {
        return writes.execute(ctx, requests.consolidate(ctx.space(), body));
    }

    /** Every event that touched the memory, oldest first; the reader must be allowed to read the memory. */
    public List<HistoryEntry> history(String space, String id, Actor reader) {
        Spaces.require(space);
        categories.requireReadable(reader, find(space, id));
        return backend.views().history(space, id);
    }

    private Memory find(String space, String id) {
        if (!PathIds.plausible(id)) {
            throw ApiException.notFound("No memory '" + id + "' in space " + space);
        }
        return backend.views()
                .memory(space, id)
                .orElseThrow(() -> new ApiException(ErrorCodes.NOT_FOUND, "No memory " + id + " in space " + space));
    }
}
