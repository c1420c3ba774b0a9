package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.contradictions.ContradictionService;
import io.memorychain.api.contradictions.FlagContradictionBody;
import io.memorychain.api.contradictions.ResolveContradictionBody;
import io.memorychain.api.error.ApiException;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Contradictions between memories or proposals (docs/architecture.md §10): list them, flag a pair, resolve one, with
 * the same service and rules as REST {@code /contradictions} and the gRPC methods.
 */
@Singleton
class ContradictionToolset implements Toolset {

    private final ContradictionService contradictions;

    ContradictionToolset(ContradictionService contradictions) {
        this.contradictions = contradictions;
    }

    @Override
    public int order() {
        return 95;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "contradictions_review",
                        Operation.RESOLVE_CONTRADICTION,
                        """
                Contradictions between two memories or proposals (same subject, different claims), flagged \
                automatically when they are written or by you. action=list shows the open ones (state=all: every \
                one); flag reports two ids that contradict each other; resolve decides one: one_wins (winner_id stays, \
                the other is superseded), keep_both (both kept at low confidence and linked as contradicting) or \
                ask_user (the user is asked at the next interaction; resolve it again with the answer).""",
                        write().enumeration("action", "list, flag or resolve", List.of("list", "flag", "resolve"), true)
                                .enumeration("state", "list: open (default) or all", List.of("open", "all"), false)
                                .string("first_id", "flag: one memory or proposal id", false)
                                .string("second_id", "flag: the other", false)
                                .string("id", "resolve: the contradiction (x...)", false)
                                .enumeration(
                                        "resolution",
                                        "resolve: how",
                                        List.of("one_wins", "keep_both", "ask_user"),
                                        false)
                                .string("winner_id", "resolve one_wins: the side that stays", false),
                        Set.of(Role.AGENT, Role.USER, Role.ADMIN, Role.WORKER),
                        this::call)
                .build();
    }

    private Object call(MemoryTool.Call c) {
        Map<String, Object> a = c.arguments();
        String action = text(a, "action");
        return switch (action) {
            case "list" -> contradictions.list(c.space(), c.caller().actor(), optional(a, "state"));
            case "flag" ->
                contradictions.flag(
                        c.write(), new FlagContradictionBody(optional(a, "first_id"), optional(a, "second_id"), null));
            case "resolve" ->
                contradictions.resolve(
                        c.write(),
                        text(a, "id"),
                        new ResolveContradictionBody(optional(a, "resolution"), optional(a, "winner_id")));
            default -> throw ApiException.invalid("action must be list, flag or resolve, was " + action);
        };
    }
}
