package io.memorychain.api.refinement;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CompleteRefinement;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.domain.Rules;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.core.CoreView;
import io.memorychain.domain.refinement.Ledger;
import io.memorychain.domain.refinement.SessionIds;
import io.memorychain.projector.view.MemoryViews;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refinement sessions (docs/architecture.md §9), transport-neutral: REST uses it, MCP and gRPC tools can call it as is.
 * Writes go through the {@link WriteExecutor} (publish, await the outcome and the local views) carrying the session id,
 * so the sequencer decides every rule on the chain's state: an edit naming a session that is not the space's open one
 * is {@code NOT_IN_REFINEMENT}, constitutional memories cannot be deleted or consolidated ({@code CONSTITUTIONAL}), a
 * consolidation is one atomic event keeping the earliest {@code created_at}. Reads come from the local views.
 *
 * <p>Every {@code sessionId} parameter takes a session id, or {@code null} / {@value #CURRENT} for the space's open
 * session (what an agent inside its session passes). No open session is {@code NOT_IN_REFINEMENT} before anything is
 * published. The knife of docs/architecture.md §9: {@link #search} (search_memories), {@link #consolidate}
 * (consolidate_memories), {@link #update} (update_memory), {@link #delete} (delete_memory), {@link #protect}
 * (protect_memory), {@link #complete} (complete_refinement); the session and its ledger: {@link #current}.
 */
public class RefinementSessions {

    /** Stands for the space's open session wherever a session id is expected. */
    public static final String CURRENT = "current";

    public static final int DEFAULT_SEARCH_LIMIT = 50;
    public static final int MAX_SEARCH_LIMIT = 500;

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final MemoryRequests requests;
    private final InputRules rules;
    private final CategoryAccess access;
    private final int defaultTargetTokens;

    public RefinementSessions(
            ChainReads backend,
            WriteExecutor writes,
            MemoryRequests requests,
            InputRules rules,
            CategoryAccess access,
            int defaultTargetTokens) {
        this.backend = backend;
        this.writes = writes;
        this.requests = requests;
        this.rules = rules;
        this.access = access;
        this.defaultTargetTokens = defaultTargetTokens;
    }

    /**
     * Starts a session by hand (trigger ADMIN; the sequencer lets admins, workers and the system start one, others get
     * 403 FORBIDDEN). The sequencer first soft-deletes exact duplicates (content-blind: content hash), recorded as
     * DuplicatesRemoved, then opens the session: both one decision. 409 INVALID_STATE when one is open already.
     *
     * @param targetTokens the core token budget to reach; null for {@code memory.refinement.target-tokens}
     * @param reason why, for the audit (optional)
     */
    public SessionView start(WriteContext ctx, Integer targetTokens, String reason) {
        if (targetTokens != null && !Rules.isValidTargetTokens(targetTokens)) {
            throw ApiException.invalid(
                    "target_tokens must be between 1 and " + Rules.MAX_TARGET_TOKENS + ", was " + targetTokens);
        }
        StartRefinement op = new StartRefinement(
                RefinementTrigger.ADMIN,
                targetTokens != null ? targetTokens : defaultTargetTokens,
                InputRules.text("reason", reason, InputRules.MAX_REASON));
        RefinementSession started = writes.submit(
                ctx,
                op,
                (views, outcome) -> views.refinements(ctx.space()).stream()
                        .filter(s -> s.getStartedSeq() == outcome.getSeq())
                        .findFirst());
        return view(ctx.space(), ctx.actor(), started);
    }

    /** The open session with its ledger and token figures; 404 NOT_FOUND when none is open. */
    public SessionView current(String space, Actor reader) {
        return view(
                space,
                reader,
                open(space)
                        .orElseThrow(() -> ApiException.notFound("No refinement session is open in space " + space)));
    }

    /** A session by id (or {@value #CURRENT}), open or completed, with its edits; 404 NOT_FOUND when unknown. */
    public SessionView session(String space, String sessionId, Actor reader) {
        if (sessionId == null || CURRENT.equals(sessionId)) {
            return current(space, reader);
        }
        Optional<RefinementSession> session =
                SessionIds.plausible(sessionId) ? backend.views().refinement(space, sessionId) : Optional.empty();
        return view(
                space,
                reader,
                session.orElseThrow(() -> ApiException.notFound(
                        "No refinement session '" + Texts.abbreviate(sessionId) + "' in space " + space)));
    }

    /** Every session of the space, oldest first, without ledgers and edits. */
    public List<SessionView> sessions(String space) {
        MemoryViews views = backend.views();
        int tokens = views.core(space).tokens();
        return views.refinements(space).stream()
                .map(s -> new SessionView(s, tokens, List.of(), List.of()))
                .toList();
    }

    /** search_memories with the arguments as REST, gRPC and MCP take them (ISO-8601 bounds; null: defaults). */
    public SearchResult search(String space, Actor reader, String sessionId, RefinementSearchBody body) {
        RefinementSearchBody b = body == null ? new RefinementSearchBody(null, null, null, null) : body;
        return search(
                space,
                reader,
                sessionId,
                b.query(),
                InputRules.instant("created_after", b.createdAfter()),
                InputRules.instant("created_before", b.createdBefore()),
                b.limit());
    }

    /**
     * search_memories: ledger memories (active core-tier, blocks excluded, the reader's categories) matching the
     * keywords and the creation time range, best first (most query words matched, then oldest first). A blank query
     * matches every ledger memory in the range: a time-range search.
     *
     * @param createdAfter inclusive lower bound of {@code created_at}, or null
     * @param createdBefore exclusive upper bound of {@code created_at}, or null
     * @param limit 1..{@value #MAX_SEARCH_LIMIT}, null for {@value #DEFAULT_SEARCH_LIMIT}
     * @return the open session's id and the matches
     */
    public SearchResult search(
            String space,
            Actor reader,
            String sessionId,
            String query,
            Instant createdAfter,
            Instant createdBefore,
            Integer limit) {
        int max = limit == null ? DEFAULT_SEARCH_LIMIT : limit;
        if (max < 1 || max > MAX_SEARCH_LIMIT) {
            throw ApiException.invalid("limit must be between 1 and " + MAX_SEARCH_LIMIT + ", was " + max);
        }
        if (createdAfter != null && createdBefore != null && !createdAfter.isBefore(createdBefore)) {
            throw ApiException.invalid(
                    "created_after " + createdAfter + " is not before created_before " + createdBefore);
        }
        if (query != null && query.length() > InputRules.MAX_REASON) {
            throw ApiException.invalid("query must be at most " + InputRules.MAX_REASON + " characters");
        }
        if (contentBlind(reader)) {
            throw new ApiException(
                    ErrorCodes.ROLE_NOT_ALLOWED,
                    "search_memories reads the ledger, which is the agent's: "
                            + "admins see a session's figures and outcome, not its memories");
        }
        String session = requireOpen(space, sessionId);
        Set<String> words = words(query);
        record Scored(Memory memory, long matched) {}
        return new SearchResult(
                session,
                ledger(backend.views().core(space), reader).stream()
                        .filter(m -> createdAfter == null || !m.getCreatedAt().isBefore(createdAfter))
                        .filter(m -> createdBefore == null || m.getCreatedAt().isBefore(createdBefore))
                        .map(m -> new Scored(m, matched(m, words)))
                        .filter(s -> words.isEmpty() || s.matched() > 0)
                        .sorted(Comparator.comparingLong((Scored s) -> -s.matched())
                                .thenComparing(s -> s.memory().getCreatedAt())
                                .thenComparing(s -> s.memory().getId()))
                        .limit(max)
                        .map(Scored::memory)
                        .toList());
    }

    /**
     * consolidate_memories: the memories become one new memory, atomically (inputs superseded, earliest created_at).
     */
    public WriteResult consolidate(
            WriteContext ctx, String sessionId, List<String> ids, String newContent, String reason) {
        return consolidate(
                ctx,
                sessionId,
                requests.consolidate(
                        ctx.space(), new ConsolidateBody(ids, newContent, null, reason, null, null, null)));
    }

    /** consolidate_memories with every field of a consolidation (summary, category, tags, importance). */
    public WriteResult consolidate(WriteContext ctx, String sessionId, ConsolidateMemories op) {
        return writes.execute(ctx.inSession(sessionFor(ctx.space(), sessionId)), op);
    }

    /** update_memory: tighter phrasing of a memory. */
    public WriteResult update(WriteContext ctx, String sessionId, String id, String content) {
        return update(
                ctx,
                sessionId,
                requests.update(id, new UpdateMemoryBody(content, null, null, null, null, null, null, null)));
    }

    /** update_memory with any field of an update. */
    public WriteResult update(WriteContext ctx, String sessionId, UpdateMemory op) {
        PathIds.require(ctx.space(), op.getId());
        return writes.execute(ctx.inSession(sessionFor(ctx.space(), sessionId)), op);
    }

    /** delete_memory: soft delete (kept forever, restorable); 403 CONSTITUTIONAL for constitutional memories. */
    public WriteResult delete(WriteContext ctx, String sessionId, String id, String reason) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx.inSession(sessionFor(ctx.space(), sessionId)), requests.delete(id, reason));
    }

    /** protect_memory: the memory becomes constitutional (never deleted or consolidated by the agent). */
    public WriteResult protect(WriteContext ctx, String sessionId, String id) {
        PathIds.require(ctx.space(), id);
        return writes.execute(
                ctx.inSession(sessionFor(ctx.space(), sessionId)), requests.flag(id, MemoryFlag.CONSTITUTIONAL, true));
    }

    /**
     * complete_refinement: ends the session; the chain records RefinementCompleted (counts, tokens before and after,
     * the summary line "Compressed 20 -> 3; saved ~800 tokens; protected 2 constitutional memories") and a JOURNAL
     * memory with that line and the given summary.
     */
    public Completion complete(WriteContext ctx, String sessionId, String summary) {
        String text = rules.content("summary", summary);
        String session = sessionFor(ctx.space(), sessionId);
        return writes.submit(
                ctx.inSession(session),
                new CompleteRefinement(text),
                (views, outcome) -> views.memory(ctx.space(), outcome.getMemoryId())
                        .flatMap(journal -> views.refinement(ctx.space(), session)
                                .map(done -> new Completion(
                                        view(ctx.space(), ctx.actor(), done), journal, outcome.getSeq()))));
    }

    /** The session id a write carries: the open session for null / "current" (else 403 NOT_IN_REFINEMENT). */
    private String sessionFor(String space, String sessionId) {
        if (sessionId == null || CURRENT.equals(sessionId)) {
            return open(space).map(RefinementSession::getSessionId).orElseThrow(() -> notInRefinement(space));
        }
        if (!SessionIds.plausible(sessionId)) {
            throw new ApiException(
                    ErrorCodes.NOT_IN_REFINEMENT,
                    "'" + Texts.abbreviate(sessionId)
                            + "' is not a refinement session id (r + 11 characters, or 'current')");
        }
        return sessionId; // the sequencer checks that it is the open one
    }

    private String requireOpen(String space, String sessionId) {
        RefinementSession open = open(space).orElseThrow(() -> notInRefinement(space));
        if (sessionId != null && !CURRENT.equals(sessionId) && !sessionId.equals(open.getSessionId())) {
            throw new ApiException(
                    ErrorCodes.NOT_IN_REFINEMENT,
                    "session '" + Texts.abbreviate(sessionId) + "' is not the open refinement session of space " + space
                            + " (" + open.getSessionId() + " is)");
        }
        return open.getSessionId();
    }

    /** What search_memories found in the open session's ledger, best first. */
    public record SearchResult(String sessionId, List<Memory> memories) {}

    private Optional<RefinementSession> open(String space) {
        return backend.views().openRefinement(space);
    }

    private static ApiException notInRefinement(String space) {
        return new ApiException(
                ErrorCodes.NOT_IN_REFINEMENT,
                "No refinement session is open in space " + space
                        + "; an admin, the token-budget trigger or the schedule starts one");
    }

    /**
     * The session as {@code reader} is given it. Admins govern sessions (start, figures, outcome) without reading what
     * is in them (docs/architecture.md §9 silo privacy): no ledger and no edits, whose before/after carry content.
     */
    private SessionView view(String space, Actor reader, RefinementSession session) {
        MemoryViews views = backend.views();
        CoreView core = views.core(space);
        if (contentBlind(reader)) {
            return new SessionView(session, core.tokens(), List.of(), List.of());
        }
        boolean open = session.getCompletedSeq() == null;
        return new SessionView(
                session,
                core.tokens(),
                open ? ledger(core, reader) : List.of(),
                views.refinementEdits(space, session.getSessionId()));
    }

    private static boolean contentBlind(Actor reader) {
        return reader.getType() == ActorType.ADMIN;
    }

    /** The ledger the reader may see: active core-tier memories, blocks excluded, in id (creation) order. */
    private List<Memory> ledger(CoreView core, Actor reader) {
        return core.memories().stream()
                .filter(Ledger::inLedger)
                .filter(m -> access.allows(reader, m.getCategory()))
                .sorted(Comparator.comparing(Memory::getId))
                .toList();
    }

    private static Set<String> words(String query) {
        Set<String> words = new LinkedHashSet<>();
        if (query != null) {
            for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
                if (!w.isEmpty()) {
                    words.add(w);
                }
            }
        }
        return words;
    }

    private static long matched(Memory m, Set<String> words) {
        String text = (m.getContent() + " " + (m.getSummary() == null ? "" : m.getSummary()) + " "
                        + String.join(" ", m.getTags()))
                .toLowerCase(Locale.ROOT);
        return words.stream().filter(text::contains).count();
    }
}
