package io.memorychain.api.contradictions;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.config.ContradictionConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.write.WriteAccepted;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.FlagContradiction;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.contradiction.Contradictions;
import io.memorychain.projector.proposal.ProposalConflicts;
import io.memorychain.projector.proposal.ProposalFlag;
import io.memorychain.projector.view.MemoryViews;
import io.micronaut.context.event.ApplicationEventListener;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flags contradictions when memories and proposals are written (docs/architecture.md §10): once the views show a new
 * memory (created, consolidated, auto-committed) or a new proposal, its text is compared with the space's active
 * memories (and a proposal's with the open proposals too) by the proposals' own conflict rule
 * ({@link ProposalConflicts}: same subject by embedding cosine in the conflict band, different normalized text); each
 * CONFLICT hit, the most similar first and at most {@code memory.contradictions.max-flags-per-write}, becomes a
 * {@code FlagContradiction} request as {@code worker:contradictions}. Never in the projection (it calls the embedding
 * model).
 *
 * <p>It runs after the write, on one thread of its own, for at most {@code memory.contradictions.queue-size} writes
 * waiting: the write's answer never waits for it, and past that a write is not checked (logged and counted) rather than
 * holding writes up. A new memory is compared once its own vector is in the views (at most {@value #INDEX_WAIT_SECONDS}
 * s later), so the memories written before it are searchable by then; that vector is the one it is compared by (the
 * model is not run a second time for it). Only writes through this service's write path are checked (every transport,
 * the message triggers, the Markdown files, imports); memories a worker job creates through its own producer are not.
 * Detection is best-effort: a write whose check is skipped or lost in a restart is not checked again; an agent may
 * still flag a pair itself.
 */
@Singleton
class ContradictionDetector implements ApplicationEventListener<WriteAccepted> {

    /** Who flags what the service detects (the sequencer lets workers flag, never resolve). */
    public static final Actor ACTOR = new Actor(ActorType.WORKER, "contradictions");
    /** The kinds of memory that state claims: episodes, journals and blocks are not compared. */
    static final Set<MemoryKind> CLAIMS =
            EnumSet.of(MemoryKind.SEMANTIC, MemoryKind.PROCEDURAL, MemoryKind.INSIGHT, MemoryKind.ENTITY);
    /** How long a new memory's check waits for its vector at most. */
    static final int INDEX_WAIT_SECONDS = 30;

    static final Duration INDEX_WAIT = Duration.ofSeconds(INDEX_WAIT_SECONDS);
    private static final Duration RETRY = Duration.ofMillis(200);
    private static final Logger log = LoggerFactory.getLogger(ContradictionDetector.class);

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final ContradictionConfig config;
    private final ProposalConflicts conflicts;
    private final ScheduledThreadPoolExecutor worker;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong flagged = new AtomicLong();

    public ContradictionDetector(
            ChainReads backend, WriteExecutor writes, ContradictionConfig config, ProposalService proposals) {
        this.backend = backend;
        this.writes = writes;
        this.config = config;
        this.conflicts = proposals.conflicts().orElse(null);
        this.worker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "contradiction-detector");
            t.setDaemon(true);
            return t;
        });
        worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        config.overrides(); // a malformed memory.contradictions.space-detect fails at startup
        if (conflicts == null) {
            log.info("Contradiction detection off: no embedding model");
        }
    }

    @Override
    public void onApplicationEvent(WriteAccepted event) {
        String subject = subject(event);
        String space = event.request().getSpace();
        if (subject == null || conflicts == null || !config.detects(space)) {
            return;
        }
        if (pending.incrementAndGet() > config.getQueueSize()) {
            pending.decrementAndGet();
            if (skipped.incrementAndGet() % 100 == 1) {
                log.warn(
                        "Contradiction detection is behind: {} writes not checked so far (queue of {})",
                        skipped.get(),
                        config.getQueueSize());
            }
            return;
        }
        worker.execute(() -> attempt(space, subject, System.nanoTime() + INDEX_WAIT.toNanos()));
    }

    /**
     * A memory is compared once its own vector is in the views: the embedder writes a space's vectors in chain order,
     * so the vectors of the memories written before it are searchable then too (a memory written a moment earlier is
     * not missed). Checked again every {@link #RETRY} until {@link #INDEX_WAIT}, then compared with what is there.
     */
    private void attempt(String space, String subject, long deadline) {
        if (!subject.startsWith("p") && !embedded(space, subject) && System.nanoTime() < deadline) {
            worker.schedule(() -> attempt(space, subject, deadline), RETRY.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        try {
            detect(space, subject);
        } catch (RuntimeException e) {
            log.warn("Contradiction detection for {} in space {} failed: {}", subject, space, e.toString());
        } finally {
            pending.decrementAndGet();
        }
    }

    private boolean embedded(String space, String id) {
        MemoryViews views = backend.views();
        Memory memory = views.memory(space, id).orElse(null);
        return memory == null
                || views.embedding(space, id)
                        .filter(e -> e.getContentHash().equals(memory.getContentHash()))
                        .isPresent();
    }

    /** Writes skipped because the queue was full, since the start. */
    public long skipped() {
        return skipped.get();
    }

    /** Contradictions flagged since the start. */
    public long flagged() {
        return flagged.get();
    }

    /** The memory or proposal a write created, if it is one detection checks. */
    private static String subject(WriteAccepted event) {
        Object op = event.request().getOp();
        boolean creates =
                op instanceof CreateMemory || op instanceof ConsolidateMemories || op instanceof SubmitProposal;
        return creates ? event.outcome().getMemoryId() : null;
    }

    /** Flags the CONFLICT hits of one new memory or proposal; the list of ids flagged (for tests and logs). */
    List<String> detect(String space, String id) {
        MemoryViews views = backend.views();
        List<ProposalFlag> hits;
        if (id.startsWith("p")) {
            Proposal proposal =
                    views.proposal(space, id).filter(Proposals::isOpen).orElse(null);
            if (proposal == null) {
                return List.of();
            }
            hits = conflicts.flagsOf(
                    views, space, proposal, views.openProposals(space), CategoryAccess.unrestricted(), ACTOR);
        } else {
            Memory memory = views.memory(space, id)
                    .filter(ContradictionDetector::comparable)
                    .orElse(null);
            if (memory == null) {
                return List.of();
            }
            // by the vector the check waited for, so the model does not embed the text a second time
            hits = views.vector(memory)
                    .map(vector -> conflicts.flagsOfText(
                            views, space, memory.getContent(), vector, CategoryAccess.unrestricted(), ACTOR))
                    .orElseGet(() -> conflicts.flagsOfText(
                            views, space, memory.getContent(), CategoryAccess.unrestricted(), ACTOR));
        }
        List<String> out = new ArrayList<>();
        for (ProposalFlag hit : hits) {
            if (out.size() >= config.getMaxFlagsPerWrite()) {
                break;
            }
            if (hit.kind() != ProposalFlag.Kind.CONFLICT
                    || hit.id().equals(id)
                    || !eligible(views, space, hit)
                    || Contradictions.openBetween(views.governance(space), hit.id(), id)
                            .isPresent()) {
                continue;
            }
            if (flag(space, hit.id(), id, hit.similarity())) {
                out.add(hit.id());
            }
        }
        return out;
    }

    private boolean flag(String space, String earlier, String later, double similarity) {
        // one request id per pair, and the pair in id order (the older memory first: ids grow with the chain), so a
        // pair met from either side (its later memory checked first when the earlier one waited for its vector) is the
        // same request with the same sides
        String first = earlier.compareTo(later) < 0 ? earlier : later;
        String second = first.equals(earlier) ? later : earlier;
        WriteContext ctx = new WriteContext(space, ACTOR, "contradiction:" + first + ":" + second, null, null);
        try {
            writes.apply(ctx, new FlagContradiction(first, second, Math.max(-1.0, Math.min(1.0, similarity))));
            flagged.incrementAndGet();
            log.debug("Flagged {} and {} in space {} as contradicting (cosine {})", earlier, later, space, similarity);
            return true;
        } catch (ApiException e) {
            // the sequencer decides on the chain's state: a side superseded or the pair flagged meanwhile
            log.debug("{} and {} in space {} not flagged: {} {}", earlier, later, space, e.code(), e.getMessage());
            return false;
        }
    }

    private static boolean eligible(MemoryViews views, String space, ProposalFlag hit) {
        return hit.target() == ProposalFlag.Target.PROPOSAL
                ? views.proposal(space, hit.id()).filter(Proposals::isOpen).isPresent()
                : views.memory(space, hit.id())
                        .filter(ContradictionDetector::comparable)
                        .isPresent();
    }

    private static boolean comparable(Memory m) {
        return m.getState() == MemoryState.ACTIVE && CLAIMS.contains(m.getKind());
    }

    @PreDestroy
    void close() {
        worker.shutdownNow();
    }
}
