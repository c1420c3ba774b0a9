package io.memorychain.api.memories;

import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.PointInTimeReads;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;

/**
 * One page of a space's memories as every transport lists it (REST {@code GET /memories}, the console): now or at a
 * point in time, with the reader's category allowlist, and for admins only under a grant that covers the page
 * ({@link GrantedReads}, recorded on the chain first).
 */
@Singleton
public class MemoryLists {

    private final Memories memories;
    private final PointInTimeReads pointInTime;
    private final GrantedReads granted;

    public MemoryLists(Memories memories, PointInTimeReads pointInTime, GrantedReads granted) {
        this.memories = memories;
        this.pointInTime = pointInTime;
        this.granted = granted;
    }

    /**
     * @param after   the previous page's {@code next} (null: the first page)
     * @param limit   1 to 500 (null: {@link Memories#DEFAULT_LIMIT})
     * @param asOfSeq a point in time as a seq (null: now), see {@link AsOf#SEQ_DOC}
     * @param asOf    a point in time as an ISO-8601 time (null: now), see {@link AsOf#TIME_DOC}
     */
    public MemoryPage list(String space, Actor reader, String kind, String category, String state, String after,
                           Integer limit, String asOfSeq, String asOf) {
        AsOf at = pointInTime.asOf(space, asOfSeq, asOf);
        Page<Memory> page = granted.read(space, reader, "list_memories", GrantedReads.detail("kind", kind, "category",
                category, "state", state, "after", after, "limit", limit, "as_of", at), () -> at == null
                ? memories.list(space, reader, kind, category, state, after, limit)
                : pointInTime.list(space, reader, kind, category, state, after,
                        limit == null ? Memories.DEFAULT_LIMIT : limit, at),
                p -> p.items().stream().map(Memory::getId).toList());
        return new MemoryPage(page.items().stream().map(MemoryJson::of).toList(), page.next());
    }
}
