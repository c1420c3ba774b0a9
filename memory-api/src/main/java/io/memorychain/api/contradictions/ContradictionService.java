package io.memorychain.api.contradictions;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ContradictionResolution;
import io.memorychain.avro.FlagContradiction;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ResolveContradiction;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.contradiction.Contradictions;
import io.memorychain.projector.view.MemoryViews;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Locale;

/**
 * Contradictions between two memories or proposals (docs/architecture.md §10, seed 001 §13.6), transport-neutral: the
 * space's list (open ones by default), flagging a pair and resolving one (one_wins with a winner, keep_both, ask_user).
 * Who may flag or resolve and what a resolution appends are the sequencer's rules ({@code ContradictionDecider}); this
 * class checks the input before anything is published, writes through the {@link WriteExecutor} (read-your-writes) and
 * hides from a reader confined by a category allowlist the contradictions with a side it may not read.
 */
@Singleton
public class ContradictionService {

    /** The states {@code GET /contradictions?state=} takes. */
    public static final List<String> STATES = List.of("open", "all");

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final CategoryReads categories;

    public ContradictionService(ChainReads backend, WriteExecutor writes, CategoryReads categories) {
        this.backend = backend;
        this.writes = writes;
        this.categories = categories;
    }

    /**
     * The contradictions the reader may see, oldest first: {@code state} open (default, null or blank: unresolved and
     * ask_user ones) or all.
     */
    public ContradictionListJson list(String space, Actor reader, String state) {
        boolean all = all(state);
        SpaceGovernance g = backend.views().governance(space);
        List<Contradiction> chosen = all ? (g == null ? List.of() : g.getContradictions()) : Contradictions.open(g);
        return new ContradictionListJson(chosen.stream()
                .filter(c -> visible(space, reader, c))
                .map(ContradictionJson::of)
                .toList());
    }

    /** The open contradictions one memory or proposal is a side of, as the reader may see them (a memory's flags). */
    public List<ContradictionJson> openOf(String space, Actor reader, String id) {
        return Contradictions.openOf(backend.views().governance(space), id).stream()
                .filter(c -> visible(space, reader, c))
                .map(ContradictionJson::of)
                .toList();
    }

    /**
     * Flags two active memories or open proposals as contradicting each other: 400 INVALID_ARGUMENT (missing or equal
     * ids, similarity outside [-1, 1]), 403 CATEGORY_NOT_ALLOWED (a side the caller may not read), and the sequencer's
     * FORBIDDEN, NOT_FOUND, INVALID_STATE (a side not active or open, or the pair already open).
     */
    public ContradictionJson flag(WriteContext ctx, FlagContradictionBody body) {
        if (body == null) {
            throw ApiException.invalid("A JSON body with first_id and second_id is required");
        }
        String first = InputRules.text("first_id", body.firstId(), InputRules.MAX_SHORT_TEXT);
        String second = InputRules.text("second_id", body.secondId(), InputRules.MAX_SHORT_TEXT);
        if (first == null || second == null) {
            throw ApiException.invalid("first_id and second_id are required");
        }
        if (first.equals(second)) {
            throw ApiException.invalid("a memory cannot contradict itself: first_id and second_id are both " + first);
        }
        Double similarity = body.similarity();
        if (similarity != null && !(similarity >= -1 && similarity <= 1)) {
            throw ApiException.invalid("similarity must be between -1 and 1");
        }
        requireReadable(ctx, first);
        requireReadable(ctx, second);
        MemoryOutcome outcome = writes.apply(ctx, new FlagContradiction(first, second, similarity));
        return readBack(ctx.space(), outcome.getMemoryId(), outcome);
    }

    /**
     * Resolves a flagged contradiction: 404 NOT_FOUND, 400 INVALID_ARGUMENT (no or an unknown resolution, a winner for
     * another resolution, a winner that is not a side), 403 FORBIDDEN (workers, sub-agents) or CONSTITUTIONAL, 409
     * ALREADY_RESOLVED or INVALID_STATE. The resolution's effects are appended with it, under one request id.
     */
    public ContradictionJson resolve(WriteContext ctx, String id, ResolveContradictionBody body) {
        if (body == null || body.resolution() == null || body.resolution().isBlank()) {
            throw ApiException.invalid("resolution is required: " + Enums.allowed(ContradictionResolution.class));
        }
        ContradictionResolution how = Enums.parse(ContradictionResolution.class, "resolution", body.resolution());
        if (how == ContradictionResolution.MOOT) {
            throw ApiException.invalid("moot is recorded by the service when a side stops being active or open: "
                    + "resolve with one_wins, keep_both or ask_user");
        }
        String winner = InputRules.text("winner_id", body.winnerId(), InputRules.MAX_SHORT_TEXT);
        if (how == ContradictionResolution.ONE_WINS && winner == null) {
            throw ApiException.invalid("one_wins needs winner_id, the side that stays");
        }
        if (how != ContradictionResolution.ONE_WINS && winner != null) {
            throw ApiException.invalid("winner_id applies to one_wins only");
        }
        Contradiction c = find(ctx.space(), id);
        if (winner != null && !winner.equals(c.getFirstId()) && !winner.equals(c.getSecondId())) {
            throw ApiException.invalid(
                    "winner_id must be one of the sides, " + c.getFirstId() + " or " + c.getSecondId());
        }
        if (!visible(ctx.space(), ctx.actor(), c)) {
            throw new ApiException(
                    ErrorCodes.CATEGORY_NOT_ALLOWED,
                    "contradiction " + id + " has a side of a category this caller may not read");
        }
        MemoryOutcome outcome = writes.apply(ctx, new ResolveContradiction(id, how, winner));
        return readBack(ctx.space(), id, outcome);
    }

    private Contradiction find(String space, String id) {
        if (!PathIds.plausible(id)) {
            throw notFound(space, id);
        }
        return Contradictions.find(backend.views().governance(space), id).orElseThrow(() -> notFound(space, id));
    }

    private ContradictionJson readBack(String space, String id, MemoryOutcome outcome) {
        return Contradictions.find(backend.views().governance(space), id)
                .map(ContradictionJson::of)
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.INTERNAL,
                        "Accepted as seq " + outcome.getSeq() + " but contradiction " + id
                                + " cannot be read back; see the server log",
                        outcome.getRequestId()));
    }

    private void requireReadable(WriteContext ctx, String id) {
        String category = category(backend.views(), ctx.space(), id);
        if (!categories.readable(ctx.actor(), category)) {
            throw new ApiException(
                    ErrorCodes.CATEGORY_NOT_ALLOWED, id + ": the caller may not read category " + category);
        }
    }

    /** Whether the reader may read both sides (a reader confined by a category allowlist sees fewer). */
    private boolean visible(String space, Actor reader, Contradiction c) {
        if (categories.listable(reader) == null) {
            return true;
        }
        MemoryViews views = backend.views();
        return categories.readable(reader, category(views, space, c.getFirstId()))
                && categories.readable(reader, category(views, space, c.getSecondId()));
    }

    private static String category(MemoryViews views, String space, String id) {
        return id.startsWith("p")
                ? views.proposal(space, id)
                        .map(p -> p.getProposal().getCategory())
                        .orElse(null)
                : views.memory(space, id).map(Memory::getCategory).orElse(null);
    }

    private static boolean all(String state) {
        if (state == null || state.isBlank()) {
            return false;
        }
        String s = state.strip().toLowerCase(Locale.ROOT);
        if (!STATES.contains(s)) {
            throw ApiException.invalid("state must be open or all, was '" + Texts.abbreviate(state) + "'");
        }
        return s.equals("all");
    }

    private static ApiException notFound(String space, String id) {
        return ApiException.notFound("No contradiction '" + Texts.abbreviate(id) + "' in space " + space);
    }
}
