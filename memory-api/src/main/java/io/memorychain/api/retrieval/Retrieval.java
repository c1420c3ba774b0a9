package io.memorychain.api.retrieval;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.PointInTimeReads;
import io.memorychain.api.ops.OpsRecorder;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.timing.ServerTiming;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryNotAllowedException;
import io.memorychain.projector.ops.OpsDerivation;
import io.memorychain.projector.retrieval.ContextAssembler;
import io.memorychain.projector.retrieval.ContextRequest;
import io.memorychain.projector.retrieval.QueryDates;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.search.FilterParser;
import io.memorychain.projector.search.InvalidFilterException;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.view.IndexUnavailableException;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * memory.query and context assembly (docs/architecture.md §7) for any transport (REST {@link RetrievalController} and
 * gRPC): input rules, the agent an actor may query as, and the errors of the retrieval services as API codes.
 */
@Singleton
public class Retrieval {

    private final QueryService queries;
    private final ContextAssembler contexts;
    private final OpsRecorder ops;
    private final io.memorychain.api.backend.ChainReads backend;

    private final PointInTimeReads pointInTime;

    /** @param ops records each query ({@code hotpath}) and context call ({@code context}) as a {@code search} */
    public Retrieval(
            QueryService queries,
            ContextAssembler contexts,
            PointInTimeReads pointInTime,
            OpsRecorder ops,
            io.memorychain.api.backend.ChainReads backend) {
        this.backend = backend;
        this.queries = queries;
        this.contexts = contexts;
        this.pointInTime = pointInTime;
        this.ops = ops;
    }

    /**
     * memory.query now, or as of the body's {@code as_of_seq} / {@code as_of} (docs/architecture.md §17): the one entry
     * point of REST {@code /query} and gRPC {@code Query}.
     */
    public QueryJson.Answer queryAt(String space, Actor actor, QueryBody body) {
        AsOf at = body == null
                ? null
                : pointInTime.asOf(space, body.asOfSeq() == null ? null : String.valueOf(body.asOfSeq()), body.asOf());
        if (at == null) {
            return query(space, actor, body);
        }
        return queryAsOf(
                space,
                actor,
                body,
                pointInTime.time(space, at),
                id -> pointInTime.versionAt(space, id, at),
                m -> pointInTime.readable(actor, m));
    }

    public QueryJson.Answer query(String space, Actor actor, QueryBody body) {
        return query(space, actor, body, null);
    }

    /** @param datesAsOf what relative dates of the query are read against (null: the time of the query) */
    private QueryJson.Answer query(String space, Actor actor, QueryBody body, Instant datesAsOf) {
        String s = Spaces.require(space);
        if (body == null) {
            throw ApiException.invalid("a JSON body with at least \"query\" is required");
        }
        QueryRequest request = valid(() -> new QueryRequest(
                s,
                agent(actor, body.agent()),
                body.query(),
                body.categories(),
                filters(body.filters()),
                body.topK() == null ? QueryRequest.DEFAULT_TOP_K : body.topK(),
                body.format() == null ? null : Enums.parse(QueryRequest.Format.class, "return", body.format()),
                body.budgetTokens(),
                body.threshold(),
                Boolean.TRUE.equals(body.includeSuperseded()),
                Boolean.TRUE.equals(body.includeDormant()),
                body.threadId(),
                body.sinceRev()));
        QueryDates dates = new QueryDates(datesAsOf, Boolean.TRUE.equals(body.dateFilter()));
        OpsRecorder.Op op = OpsRecorder.Op.of(s, actor, OpsDerivation.HOTPATH, "search", OpsDerivation.OK)
                .withScope(null, body.threadId());
        return recorded(op, () -> {
            QueryResult result = queries.query(request, actor, dates, ServerTiming.current()::add);
            ops.record(op.withSim(
                    result.items().isEmpty() ? null : result.items().get(0).score()));
            return QueryJson.of(result);
        });
    }

    /**
     * memory.query at a point in time (docs/architecture.md §17): the query over the current index, each candidate
     * mapped to its version at the point and dropped when it was not there or not active then. Limits: a memory active
     * then but deleted or archived since is not a candidate; ranking uses the current content and decay.
     *
     * @param datesAsOf the time of the point: relative dates of the query ("last week") are read against it
     * @param versionAt a memory's version at the point, or null when it did not exist yet
     * @param readable whether the reader may read a version (its category)
     */
    public QueryJson.Answer queryAsOf(
            String space,
            Actor actor,
            QueryBody body,
            Instant datesAsOf,
            java.util.function.Function<String, io.memorychain.avro.Memory> versionAt,
            java.util.function.Predicate<io.memorychain.avro.Memory> readable) {
        return QueryJson.asOf(
                query(space, actor, body, datesAsOf),
                versionAt,
                readable,
                Boolean.TRUE.equals(body.includeSuperseded()));
    }

    public QueryJson.Context context(String space, Actor actor, ContextBody body) {
        String s = Spaces.require(space);
        if (body == null) {
            throw ApiException.invalid("a JSON body with at least \"message\" is required");
        }
        ContextRequest request = valid(() -> new ContextRequest(
                s,
                agent(actor, body.agent()),
                body.message(),
                body.threadId(),
                body.sinceRev(),
                body.maxTokens() == null ? ContextRequest.DEFAULT_MAX_TOKENS : body.maxTokens()));
        OpsRecorder.Op op = OpsRecorder.Op.of(s, actor, OpsDerivation.CONTEXT, "search", OpsDerivation.OK)
                .withScope(null, body.threadId());
        return recorded(op, () -> {
            QueryJson.Context context = QueryJson.of(contexts.assemble(request, actor, ServerTiming.current()::add));
            ops.record(op);
            return openRefinement(s).map(context::withRefinement).orElse(context);
        });
    }

    /** Agents and sub-agents read as themselves; others may name the agent whose allowlist applies. */
    static String agent(Actor actor, String requested) {
        boolean confined = actor.getType() == ActorType.AGENT || actor.getType() == ActorType.SUBAGENT;
        if (!confined) {
            return requested;
        }
        if (requested != null && !requested.equals(actor.getId())) {
            throw new ApiException(ErrorCodes.FORBIDDEN, "agent " + actor.getId() + " may not query as " + requested);
        }
        return actor.getId();
    }

    /** The filters object (docs/architecture.md §7): flat fields, operators, AND / OR / NOT; 400 INVALID_FILTER. */
    static SearchFilters filters(Map<String, Object> filters) {
        try {
            return FilterParser.parse(filters, "filters");
        } catch (InvalidFilterException e) {
            throw new ApiException(ErrorCodes.INVALID_FILTER, e.reason() + " " + e.getMessage());
        }
    }

    private static <T> T valid(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(e.getMessage());
        }
    }

    /** Runs {@code run} (which records its success), recording a refusal as {@code error} with its code. */
    private <T> T recorded(OpsRecorder.Op op, Supplier<T> run) {
        try {
            return answer(run);
        } catch (ApiException e) {
            ops.record(new OpsRecorder.Op(
                    op.space(),
                    op.actor(),
                    op.node(),
                    op.op(),
                    OpsDerivation.ERROR,
                    e.code(),
                    null,
                    null,
                    null,
                    op.userId(),
                    op.threadId()));
            throw e;
        }
    }

    private static <T> T answer(Supplier<T> run) {
        try {
            return run.get();
        } catch (CategoryNotAllowedException e) {
            throw new ApiException(ErrorCodes.CATEGORY_NOT_ALLOWED, e.getMessage());
        } catch (IndexUnavailableException e) {
            throw new ApiException(ErrorCodes.UNAVAILABLE, e.getMessage() + "; retry shortly");
        }
    }

    /** The space's open refinement session, so the agent knows one waits (docs/architecture.md §9). */
    private java.util.Optional<QueryJson.OpenRefinement> openRefinement(String space) {
        return backend.views()
                .openRefinement(space)
                .map(session -> new QueryJson.OpenRefinement(
                        session.getSessionId(), session.getTrigger().name().toLowerCase(java.util.Locale.ROOT),
                        session.getStartedAt().toString(),
                                String.format(
                                        java.util.Locale.ROOT,
                                        "Current core: %,d tokens; target: %,d",
                                        backend.views().core(space).tokens(),
                                        session.getTargetTokens())));
    }
}
