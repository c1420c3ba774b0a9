package io.memorychain.api.history;

import io.memorychain.api.core.CoreJson;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.MemoryPage;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.retrieval.Retrieval;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;

/**
 * The reads that take an optional point in time ({@code as_of_seq} / {@code as_of}, docs/architecture.md §17) as every
 * transport answers them: now or then, and for an admin under a grant the read recorded first ({@link GrantedReads}).
 * REST's memory, core and query routes, the gRPC methods, the MCP tools and the console call these; no adapter composes
 * grants or points in time itself (ApiArchitectureTest).
 */
@Singleton
public class AsOfReads {

    private final Memories memories;
    private final CoreMemory coreMemory;
    private final PointInTimeReads pointInTime;
    private final GrantedReads granted;
    private final Retrieval retrieval;

    public AsOfReads(
            Memories memories,
            CoreMemory coreMemory,
            PointInTimeReads pointInTime,
            GrantedReads granted,
            Retrieval retrieval) {
        this.memories = memories;
        this.coreMemory = coreMemory;
        this.pointInTime = pointInTime;
        this.granted = granted;
        this.retrieval = retrieval;
    }

    /** The point named by {@code as_of_seq} / {@code as_of} (400 INVALID_ARGUMENT), or null for now. */
    public AsOf point(String space, String asOfSeq, String asOf) {
        return pointInTime.asOf(space, asOfSeq, asOf);
    }

    /** The space's head: the seq of its last event applied here (0 for an empty space). */
    public long head(String space) {
        return pointInTime.head(Spaces.require(space));
    }

    /** When the point was: its time, or when the event at its seq occurred (null when the log no longer holds it). */
    public Instant time(String space, AsOf at) {
        return pointInTime.time(space, at);
    }

    /** One memory now ({@code at} null) or at the point; 404 NOT_FOUND when it did not exist then. */
    public Memory memory(String space, String id, Actor reader, AsOf at) {
        return granted.read(
                space,
                reader,
                "get_memory",
                GrantedReads.detail("id", id, "as_of", at),
                () -> at == null ? memories.get(space, id, reader) : pointInTime.memory(space, id, reader, at),
                m -> List.of(m.getId()));
    }

    /** One page of the listing now ({@code at} null) or as it was; {@code limit} null: the default page size. */
    public MemoryPage list(
            String space,
            Actor reader,
            String kind,
            String category,
            String state,
            String after,
            Integer limit,
            AsOf at) {
        Page<Memory> page = granted.read(
                space,
                reader,
                "list_memories",
                GrantedReads.detail(
                        "kind",
                        kind,
                        "category",
                        category,
                        "state",
                        state,
                        "after",
                        after,
                        "limit",
                        limit,
                        "as_of",
                        at),
                () -> at == null
                        ? memories.list(space, reader, kind, category, state, after, limit)
                        : pointInTime.list(
                                space,
                                reader,
                                kind,
                                category,
                                state,
                                after,
                                limit == null ? Memories.DEFAULT_LIMIT : limit,
                                at),
                p -> p.items().stream().map(Memory::getId).toList());
        return new MemoryPage(page.items().stream().map(MemoryJson::of).toList(), page.next());
    }

    /** memory.query now or as of the body's {@code as_of_seq} / {@code as_of}; an admin's under a grant, recorded. */
    public QueryJson.Answer query(String space, Actor reader, QueryBody body) {
        return granted.readWholeSpace(
                space,
                reader,
                "query",
                GrantedReads.detail(
                        "query_chars",
                        body == null || body.query() == null
                                ? null
                                : body.query().length(),
                        "as_of_seq",
                        body == null ? null : body.asOfSeq(),
                        "as_of",
                        body == null ? null : body.asOf()),
                () -> retrieval.queryAt(space, reader, body),
                QueryJson::memoryIds);
    }

    /** The core memory now ({@code at} null) or as it was. */
    public CoreJson core(String space, Actor reader, AsOf at) {
        return CoreJson.of(at == null ? coreMemory.read(space, reader) : pointInTime.core(space, reader, at));
    }
}
