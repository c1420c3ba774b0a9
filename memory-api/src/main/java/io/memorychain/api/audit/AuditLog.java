package io.memorychain.api.audit;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.projector.view.MemoryViews;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/** Pages of a space's audit log (REST {@link AuditController} and gRPC): one entry per chain event, oldest first. */
@Singleton
public class AuditLog {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1_000;
    /** Entries read from the view per call while searching. */
    static final int SCAN_BATCH = 500;
    /** Entries a {@link #timeline} page reads at most. */
    public static final int TIMELINE_SCAN = 5_000;

    /** The description of an entry about a memory its reader may not read (descriptions carry content excerpts). */
    static final String HIDDEN = "(details hidden: a memory of a category this caller may not read)";

    private final ChainReads backend;
    private final CategoryReads categories;

    public AuditLog(ChainReads backend, CategoryReads categories) {
        this.backend = backend;
        this.categories = categories;
    }

    /**
     * @param afterSeq entries with a greater seq (null: 0, from the start)
     * @param limit 1 to {@link #MAX_LIMIT} (null: {@link #DEFAULT_LIMIT})
     */
    public AuditPage page(String space, Actor reader, Long afterSeq, Integer limit) {
        return search(space, reader, AuditQuery.ALL, afterSeq, limit);
    }

    /**
     * The entries {@code query} asks about, oldest first from {@code afterSeq} (paged like {@link #page}), or, for
     * {@link AuditQuery#newestFirst()}, the last {@code limit} of them, newest first (no further page). The log is read
     * in seq order; {@code occurred_at} never decreases along a chain, so an {@code until} ends the read.
     */
    public AuditPage search(String space, Actor reader, AuditQuery query, Long afterSeq, Integer limit) {
        Spaces.require(space);
        long after = afterSeq == null ? 0 : afterSeq;
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (after < 0) {
            throw ApiException.invalid("after_seq must be 0 or more, was " + after);
        }
        if (max < 1 || max > MAX_LIMIT) {
            throw ApiException.invalid("limit must be between 1 and " + MAX_LIMIT + ", was " + max);
        }
        if (!query.filters()) {
            List<AuditEntry> entries = backend.views().audit(space, after, max);
            Long next = entries.size() < max
                    ? null
                    : entries.get(entries.size() - 1).getSeq();
            return new AuditPage(
                    entries.stream().map(e -> entry(space, reader, e)).toList(), next);
        }
        Predicate<AuditEntry> match = matcher(space, query);
        Deque<AuditEntry> found = new ArrayDeque<>();
        boolean more = scan(space, after, query, e -> {
            if (!match.test(e)) {
                return true;
            }
            found.addLast(e);
            if (found.size() > max) {
                found.removeFirst(); // newest first keeps the last max matches
            }
            return query.newestFirst() || found.size() < max;
        });
        List<AuditEntry> entries = new ArrayList<>(found);
        if (query.newestFirst()) {
            Collections.reverse(entries);
        }
        Long next = query.newestFirst() || !more
                ? null
                : entries.get(entries.size() - 1).getSeq();
        return new AuditPage(entries.stream().map(e -> entry(space, reader, e)).toList(), next);
    }

    /**
     * A page of the entries {@code query} asks about, newest first, older than {@code beforeSeq} (null: from the head),
     * for paging back through a space's history. The log is read backwards in batches of seqs; a page reads at most
     * {@link #TIMELINE_SCAN} entries, so that a rare match costs bounded time per page: it then answers what it found
     * with the cursor where it stopped ({@link AuditTimeline#searchedTo}). {@code occurred_at} never decreases along a
     * chain, so a {@code since} ends the read. The query's order is ignored (always newest first).
     *
     * @param limit 1 to {@link #MAX_LIMIT} (null: {@link #DEFAULT_LIMIT})
     */
    public AuditTimeline timeline(String space, Actor reader, AuditQuery query, Long beforeSeq, Integer limit) {
        return timeline(space, reader, query, beforeSeq, limit, SCAN_BATCH, TIMELINE_SCAN);
    }

    /**
     * {@link #timeline} reading {@code batch} seqs at a time and at most {@code bound} entries (tests make them small).
     */
    AuditTimeline timeline(
            String space, Actor reader, AuditQuery query, Long beforeSeq, Integer limit, int batch, int bound) {
        Spaces.require(space);
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (max < 1 || max > MAX_LIMIT) {
            throw ApiException.invalid("limit must be between 1 and " + MAX_LIMIT + ", was " + max);
        }
        if (beforeSeq != null && beforeSeq < 1) {
            throw ApiException.invalid("before_seq must be 1 or more, was " + beforeSeq);
        }
        long head = backend.views().appliedSeq(space);
        long below = beforeSeq == null ? head + 1 : Math.min(beforeSeq, head + 1);
        Predicate<AuditEntry> match = matcher(space, query);
        List<AuditEntry> found = new ArrayList<>();
        long read = 0;
        while (below > 1) {
            long from = Math.max(0, below - 1 - batch);
            List<AuditEntry> entries = backend.views().audit(space, from, batch);
            for (int i = entries.size() - 1; i >= 0; i--) {
                AuditEntry e = entries.get(i);
                if (e.getSeq() >= below) {
                    continue;
                }
                if (query.since() != null && e.getOccurredAt().isBefore(query.since())) {
                    return timeline(space, reader, found, null, e.getSeq());
                }
                if (match.test(e)) {
                    found.add(e);
                    if (found.size() == max) {
                        return timeline(space, reader, found, e.getSeq() > 1 ? e.getSeq() : null, e.getSeq());
                    }
                }
            }
            read += below - 1 - from;
            below = from + 1;
            if (read >= bound && below > 1) {
                return timeline(space, reader, found, below, below);
            }
        }
        return timeline(space, reader, found, null, 1);
    }

    private AuditTimeline timeline(
            String space, Actor reader, List<AuditEntry> found, Long olderThan, long searchedTo) {
        return new AuditTimeline(
                found.stream().map(e -> entry(space, reader, e)).toList(), olderThan, searchedTo);
    }

    /**
     * The seq of the space's last entry that occurred before {@code time} (0: none): a binary search, since
     * {@code occurred_at} never decreases along a chain.
     */
    long seqBefore(String space, Instant time) {
        long low = 0; // occurred before time (or 0)
        long high = backend.views().appliedSeq(space) + 1; // occurred at or after time (or past the head)
        while (high - low > 1) {
            long mid = (low + high) >>> 1;
            List<AuditEntry> at = backend.views().audit(space, mid - 1, 1);
            if (at.isEmpty()) {
                high = mid;
            } else if (at.get(0).getOccurredAt().isBefore(time)) {
                low = at.get(0).getSeq();
            } else {
                high = mid;
            }
        }
        return low;
    }

    /**
     * Reads the log after {@code after} in seq order, feeding {@code visit} until it returns false (then true: there
     * may be more) or the log (or the query's {@code until}) ends (then false).
     */
    boolean scan(String space, long after, AuditQuery query, Predicate<AuditEntry> visit) {
        long from = after;
        while (true) {
            List<AuditEntry> batch = backend.views().audit(space, from, SCAN_BATCH);
            for (AuditEntry e : batch) {
                if (query.until() != null && !e.getOccurredAt().isBefore(query.until())) {
                    return false;
                }
                if (!visit.test(e)) {
                    return true;
                }
            }
            if (batch.size() < SCAN_BATCH) {
                return false;
            }
            from = batch.get(batch.size() - 1).getSeq();
        }
    }

    /**
     * Every matching entry of the query from {@code afterSeq}, oldest first, in pages of {@link #MAX_LIMIT}: an export
     * (a user's whole history).
     */
    public List<AuditEntryJson> all(String space, Actor reader, AuditQuery query, Long afterSeq) {
        List<AuditEntryJson> entries = new ArrayList<>();
        Long after = afterSeq;
        do {
            AuditPage page = search(space, reader, query, after, MAX_LIMIT);
            entries.addAll(page.items());
            after = page.nextAfterSeq();
        } while (after != null);
        return entries;
    }

    private Predicate<AuditEntry> matcher(String space, AuditQuery query) {
        return query.entryMatch()
                .and(e -> query.blockLabel() == null
                        || touches(space, e, m -> query.blockLabel().equals(m.getBlockLabel())))
                .and(e -> query.userId() == null
                        || touches(space, e, m -> query.userId().equals(m.getUserId())));
    }

    private boolean touches(String space, AuditEntry e, Predicate<Memory> memory) {
        return e.getMemoryIds().stream()
                .anyMatch(id ->
                        backend.views().memory(space, id).map(memory::test).orElse(false));
    }

    /**
     * The entry as {@code reader} may see it: for an agent confined by a category allowlist, an event about a memory
     * (or proposal) of a category it may not read keeps its seq, type, actor, ids and hash but not its description. The
     * category is the memory's current one.
     */
    public AuditEntryJson entry(String space, Actor reader, AuditEntry e) {
        AuditEntryJson json = AuditEntryJson.of(e);
        if (categories.listable(reader) == null
                || e.getMemoryIds().stream().allMatch(id -> categories.readable(reader, category(space, id)))) {
            return json;
        }
        return new AuditEntryJson(
                json.seq(),
                json.eventType(),
                json.requestId(),
                json.actor(),
                json.occurredAt(),
                json.memoryIds(),
                HIDDEN,
                json.hash());
    }

    private String category(String space, String id) {
        MemoryViews views = backend.views();
        return views.memory(space, id)
                .map(Memory::getCategory)
                .or(() -> views.proposal(space, id).map(p -> p.getProposal().getCategory()))
                .orElse(null);
    }
}
