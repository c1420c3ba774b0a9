package io.memorychain.api.history;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.domain.core.CoreView;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Point-in-time reads (docs/architecture.md §17): a memory, a listing and the core memory as they were after a seq or
 * at a time, answered from the per-memory history view (every snapshot each event produced, {@code view-history})
 * without a rebuild. The reader's category allowlist applies to the version read.
 */
@Singleton
public class PointInTimeReads {

    private final ChainReads backend;
    private final CategoryReads categories;
    private final CoreIds coreIds = new CoreIds();

    public PointInTimeReads(ChainReads backend, CategoryReads categories) {
        this.backend = backend;
        this.categories = categories;
    }

    /** The point named by {@code as_of_seq} / {@code as_of} for the space (400 INVALID_ARGUMENT), or null. */
    public AsOf asOf(String space, String asOfSeq, String asOf) {
        return AsOf.of(asOfSeq, asOf, backend.views().appliedSeq(Spaces.require(space)));
    }

    /** The space's head here: the seq of its last applied event (0 for an empty space). */
    public long head(String space) {
        return backend.views().appliedSeq(Spaces.require(space));
    }

    /** The memory's version at the point; 404 NOT_FOUND when it did not exist yet. */
    public Memory memory(String space, String id, Actor reader, AsOf asOf) {
        Spaces.require(space);
        if (!PathIds.plausible(id)) {
            throw ApiException.notFound("No memory '" + id + "' in space " + space);
        }
        Memory m = versionAt(backend.views(), space, id, asOf);
        if (m == null) {
            throw new ApiException(ErrorCodes.NOT_FOUND, "No memory " + id + " in space " + space + " at " + asOf);
        }
        return categories.requireReadable(reader, m);
    }

    /** One page of the listing as it was, in id order; state null = active. Filters as the current listing's. */
    public Page<Memory> list(
            String space,
            Actor reader,
            String kind,
            String category,
            String state,
            String after,
            int limit,
            AsOf asOf) {
        Spaces.require(space);
        MemoryKind k;
        MemoryState s;
        try {
            k = Enums.parse(MemoryKind.class, "kind", kind);
            s = Enums.parse(MemoryState.class, "state", state);
            new ListQuery(k, category, s, after, limit, null);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(e.getMessage());
        }
        categories.requireReadable(reader, category);
        MemoryState wanted = s == null ? MemoryState.ACTIVE : s;
        List<Memory> page = new ArrayList<>();
        String[] next = {null};
        backend.views().histories(space, after, entries -> {
            Memory m = versionAt(entries, asOf);
            if (m == null
                    || m.getState() != wanted
                    || k != null && m.getKind() != k
                    || category != null && !category.equals(m.getCategory())
                    || !categories.readable(reader, m.getCategory())) {
                return true;
            }
            if (page.size() == limit) {
                next[0] = page.get(page.size() - 1).getId();
                return false;
            }
            page.add(m);
            return true;
        });
        return new Page<>(page, next[0]);
    }

    /** The core memory as it was: the active blocks and core-tier memories at the point. */
    public CoreView core(String space, Actor reader, AsOf asOf) {
        Spaces.require(space);
        MemoryViews views = backend.views();
        List<Memory> core = new ArrayList<>();
        for (String id : coreIds.ever(views, space)) {
            Memory m = versionAt(views, space, id, asOf);
            if (m != null && m.getState() == MemoryState.ACTIVE && CoreIds.core(m)) {
                core.add(m);
            }
        }
        core.sort(Comparator.comparing(Memory::getId));
        return categories.visible(reader, CoreFormatter.format(core));
    }

    /** The version at the point of a memory that exists now, or null when it did not exist yet. */
    public Memory versionAt(String space, String id, AsOf asOf) {
        return versionAt(backend.views(), space, id, asOf);
    }

    /**
     * The time of the point: {@code as_of} itself, or when the event at {@code as_of_seq} occurred (null when the
     * space's log no longer holds it).
     */
    public Instant time(String space, AsOf asOf) {
        if (asOf.time() != null) {
            return asOf.time();
        }
        List<AuditEntry> at = backend.views().audit(Spaces.require(space), asOf.seq() - 1, 1);
        return at.isEmpty() || at.get(0).getSeq() != asOf.seq()
                ? null
                : at.get(0).getOccurredAt();
    }

    /** Whether the reader's category allowlist covers the memory. */
    public boolean readable(Actor reader, Memory memory) {
        return categories.readable(reader, memory.getCategory());
    }

    private static Memory versionAt(MemoryViews views, String space, String id, AsOf asOf) {
        return versionAt(views.history(space, id), asOf);
    }

    private static Memory versionAt(List<HistoryEntry> history, AsOf asOf) {
        Objects.requireNonNull(asOf, "asOf");
        HistoryEntry found = null;
        for (HistoryEntry entry : history) {
            if (asOf.covers(entry) && (found == null || entry.getSeq() > found.getSeq())) {
                found = entry;
            }
        }
        return found == null ? null : found.getAfter();
    }
}
