package io.memorychain.projector.view;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.EdgeVersion;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantRead;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.Relation;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.core.CoreView;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.support.Vectors;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Read side over the projection's RocksDB views (interactive queries on this instance). Every answer is a pure function
 * of the chain up to {@link #appliedSeq(String)} for that space.
 */
public interface MemoryViews {

    /** Any memory of the space by id, whatever its state; empty for unknown ids and ids of other spaces. */
    Optional<Memory> memory(String space, String id);

    /** Memories of a space in id (creation) order, filtered, one page at a time. */
    Page<Memory> list(String space, ListQuery query);

    /** The active version of a labelled block. */
    Optional<Memory> block(String space, String label);

    /** Active blocks and core-tier memories, formatted as sections, with their token count. */
    CoreView core(String space);

    /** Every event that touched the memory, oldest first, with the memory before and after. */
    List<HistoryEntry> history(String space, String id);

    /**
     * Every memory's history in id order, one memory at a time (its entries oldest first), starting after
     * {@code afterId} (null: the first), until {@code visit} returns false: one read of the history view instead of one
     * per memory.
     */
    void histories(String space, String afterId, Predicate<List<HistoryEntry>> visit);

    /** The space's audit log, oldest first, entries with seq greater than {@code afterSeq}. */
    List<AuditEntry> audit(String space, long afterSeq, int limit);

    /**
     * Current revision of a conversation thread's memories (0 when unchanged); thread "" = memories outside threads.
     */
    long threadRevision(String space, String thread);

    /** The thread's changes after {@code sinceRev}, oldest first, at most {@code limit} (only the last 50 are kept). */
    List<ThreadChange> threadChanges(String space, String thread, long sinceRev, int limit);

    /** Relation edges of the memory, outgoing then incoming, each in target/source id order. */
    List<Relation> relations(String space, String id);

    /**
     * The relation edge {@code from -> to} as the last edge event at or before {@code seq} left it (its type null once
     * unlinked); empty when no such event (docs/architecture.md §17).
     */
    Optional<EdgeVersion> edgeAt(String space, String fromId, String toId, long seq);

    /**
     * Whether {@link #edgeAt} knows every edge event of the space since its first (false for spaces whose first events
     * were projected before the edge history existed, until the views are rebuilt).
     */
    boolean edgeHistoryWhole(String space);

    /** Strength of the memory's strongest relation edge, either direction; 0 when it has none. */
    double relationStrength(String space, String id);

    /** The memory's latest embedding of the configured model, whatever content it belongs to. */
    Optional<MemoryEmbedding> embedding(String space, String id);

    /**
     * The vector of this version's content by the configured model (its {@link #embedding} when that was made of the
     * same content hash), as the search index takes it; empty while the embedder has not caught up with it.
     */
    default Optional<float[]> vector(Memory memory) {
        return embedding(memory.getSpace(), memory.getId())
                .filter(e -> e.getContentHash().equals(memory.getContentHash()))
                .map(e -> Vectors.toArray(e.getVector()));
    }

    /** How often and when the memory was last returned to a caller; empty when never. */
    Optional<AccessStats> access(String space, String id);

    /**
     * Searches the space's index (see {@link SearchRequest}).
     *
     * @throws IndexUnavailableException when no task of this instance holds the space's index right now
     */
    List<Hit> search(SearchRequest request);

    /**
     * The active memories written just before and after each of these memories in its thread (see
     * {@link io.memorychain.projector.search.MemoryIndex#threadNeighbours}); views without an index know none.
     */
    default Map<String, ThreadNeighbours> threadNeighbours(String space, Collection<Memory> memories) {
        return Map.of();
    }

    /**
     * The entity memories of the space, in any state, that answer to one of these name keys (see
     * {@link io.memorychain.projector.search.MemoryIndex#namedEntities}); views without an index know none.
     */
    default List<String> namedEntities(String space, Collection<String> keys, int max) {
        return List.of();
    }

    /** A proposal of the space (docs/architecture.md §10) by id, whatever its status; empty for unknown ids. */
    Optional<Proposal> proposal(String space, String id);

    /** A reflection of the space (docs/architecture.md §18) by id, whatever its status; empty for unknown ids. */
    Optional<Reflection> reflection(String space, String id);

    /** The space's reflections, pending and decided, oldest first: the reflection log. */
    List<Reflection> reflections(String space);

    /** A Mechanic's Exception grant of the space (docs/architecture.md §13) by id, whatever its status. */
    Optional<Grant> grant(String space, String id);

    /** The space's grants, oldest first. */
    List<Grant> grants(String space);

    /** The content reads recorded under a grant, oldest first. */
    List<GrantRead> grantReads(String space, String grantId);

    /**
     * The space's profile fields, consent requests, benign values awaiting corroboration and critical-change alerts
     * (docs/architecture.md §21); empty lists when it has none.
     */
    io.memorychain.avro.view.SpaceGovernance governance(String space);

    /** The space's open proposals (pending and deferred), oldest first: the pending-proposals view. */
    List<Proposal> openProposals(String space);
    /** The space's open refinement session, if any (docs/architecture.md §9). */
    Optional<RefinementSession> openRefinement(String space);

    /** A refinement session of the space by id, open or completed. */
    Optional<RefinementSession> refinement(String space, String sessionId);

    /** The space's refinement sessions, oldest first. */
    List<RefinementSession> refinements(String space);

    /** The session's edits, oldest first, each with the memories it changed before and after. */
    List<RefinementEdit> refinementEdits(String space, String sessionId);

    /**
     * How many memories of the space stand in each tier, state, decay status, kind and category: the projection's
     * maintained counters (a few keys per space, no scan of its memories). Views without them know none.
     */
    default MemoryCounts counts(String space) {
        return MemoryCounts.NONE;
    }

    /** Highest chain seq of the space that the local projection has applied (0 when none). */
    long appliedSeq(String space);

    /**
     * The spaces whose chains this instance's projection holds, with their applied seq, in space order, at most
     * {@code limit} (for the chain figures on {@code /prometheus}).
     */
    Map<String, Long> appliedSeqs(int limit);

    /** Waits until the projection applied {@code seq} of the space; false on timeout. */
    boolean awaitApplied(String space, long seq, Duration timeout) throws InterruptedException;
}
