package io.memorychain.api.retrieval;

import io.swagger.v3.oas.annotations.Parameter;
import io.micronaut.http.annotation.RequestAttribute;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.projector.retrieval.CategoryNotAllowedException;
import io.memorychain.projector.retrieval.ContextAssembler;
import io.memorychain.projector.retrieval.ContextRequest;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.view.IndexUnavailableException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/** memory.query and context assembly (DESIGN.md section 7). */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "retrieval")
public class RetrievalController {

    private final QueryService queries;
    private final ContextAssembler contexts;

    public RetrievalController(QueryService queries, ContextAssembler contexts) {
        this.queries = queries;
        this.contexts = contexts;
    }

    @Post("/query")
    @Operation(summary = "memory.query: hybrid search with filters, allowlist, budget and delta header",
            description = "Keyword (BM25) and meaning (embedding) search fused, reranked by decay, importance, recency "
                    + "and relations. Returned memories are recorded as accesses.")
    @ApiResponse(responseCode = "400", description = "INVALID_ARGUMENT", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(responseCode = "403", description = "CATEGORY_NOT_ALLOWED or FORBIDDEN", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(responseCode = "503", description = "UNAVAILABLE: the space's index is being rebuilt", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public QueryJson.Answer query(@PathVariable String space, @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actorHeader,
                                  @Nullable @Body QueryBody body) {
        String s = Spaces.require(space);
        Actor actor = actorHeader;
        if (body == null) {
            throw ApiException.invalid("a JSON body with at least \"query\" is required");
        }
        QueryRequest request = valid(() -> new QueryRequest(s, agent(actor, body.agent()), body.query(),
                body.categories(), filters(body.filters()),
                body.topK() == null ? QueryRequest.DEFAULT_TOP_K : body.topK(),
                body.format() == null ? null : Enums.parse(QueryRequest.Format.class, "return", body.format()),
                body.budgetTokens(), body.threshold(), Boolean.TRUE.equals(body.includeSuperseded()),
                Boolean.TRUE.equals(body.includeDormant()), body.threadId(), body.sinceRev()));
        return answer(() -> QueryJson.of(queries.query(request, actor)));
    }

    @Post("/context")
    @Operation(summary = "Context for the start of a turn: core memory, delta header, working memories, within max_tokens")
    @ApiResponse(responseCode = "400", description = "INVALID_ARGUMENT", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(responseCode = "403", description = "FORBIDDEN", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public QueryJson.Context context(@PathVariable String space, @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actorHeader,
                                     @Nullable @Body ContextBody body) {
        String s = Spaces.require(space);
        Actor actor = actorHeader;
        if (body == null) {
            throw ApiException.invalid("a JSON body with at least \"message\" is required");
        }
        ContextRequest request = valid(() -> new ContextRequest(s, agent(actor, body.agent()), body.message(),
                body.threadId(), body.sinceRev(),
                body.maxTokens() == null ? ContextRequest.DEFAULT_MAX_TOKENS : body.maxTokens()));
        return answer(() -> QueryJson.of(contexts.assemble(request, actor)));
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

    static SearchFilters filters(FiltersBody f) {
        if (f == null) {
            return SearchFilters.NONE;
        }
        return valid(() -> SearchFilters.builder().userId(f.userId()).agentId(f.agentId()).runId(f.runId())
                .actorId(f.actorId()).role(f.role()).category(f.category()).pinned(f.pinned())
                .importanceMin(f.importanceMin()).importanceMax(f.importanceMax())
                .updatedAfter(date("filters.updated_after", f.updatedAfter()))
                .updatedBefore(date("filters.updated_before", f.updatedBefore())).build());
    }

    /** An ISO date (midnight UTC) or date-time. */
    static Instant date(String field, String value) {
        if (value == null) {
            return null;
        }
        try {
            return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeException notADate) {
            return InputRules.instant(field, value);
        }
    }

    private static <T> T valid(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(e.getMessage());
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

}
