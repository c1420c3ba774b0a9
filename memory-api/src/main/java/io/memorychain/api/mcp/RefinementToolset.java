package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.versionedWrite;
import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.refinement.CompleteRefinementBody;
import io.memorychain.api.refinement.CompletionJson;
import io.memorychain.api.refinement.RefinementSearchBody;
import io.memorychain.api.refinement.RefinementSearchJson;
import io.memorychain.api.refinement.RefinementSessionJson;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.api.refinement.StartRefinementBody;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Refinement sessions and their knife tools; every knife tool works only inside the space's open session. */
@Singleton
class RefinementToolset implements Toolset {

    private final RefinementSessions refinements;
    private final MemoryRequests requests;
    private final ToolArgs args;

    RefinementToolset(RefinementSessions refinements, MemoryRequests requests, ToolArgs args) {
        this.refinements = refinements;
        this.requests = requests;
        this.args = args;
    }

    @Override
    public int order() {
        return 80;
    }

    @Override
    public List<MemoryTool> tools() {
        ToolList tools = new ToolList();
        String current = RefinementSessions.CURRENT;
        tools.add(
                "refinement_start",
                Operation.START_REFINEMENT,
                """
                Start a refinement session for a space (admin): exact duplicates are removed first, then the agent \
                gets its core ledger, its token count and the target, and compresses it with the knife tools.""",
                write().integer("target_tokens", "Core token budget to reach; default 5,000", 1, 1_000_000, false)
                        .string("reason", "Why", false),
                Set.of(Role.ADMIN),
                c -> {
                    StartRefinementBody start = args.body(c.arguments(), StartRefinementBody.class);
                    return RefinementSessionJson.of(refinements.start(c.write(), start.targetTokens(), start.reason()));
                });
        tools.add(
                "refinement_session",
                Operation.GET_REFINEMENT,
                """
                Your open refinement session: the ledger of your core memories (id, content, created_at, tags, flags), \
                current core tokens and the target. Compress: merge many granular memories into fewer dense laws, \
                tighten phrasing, drop obsolete entries, protect identity-critical commitments.""",
                withSpace(),
                Set.of(Role.AGENT),
                c -> RefinementSessionJson.of(
                        refinements.session(c.space(), current, c.caller().actor())));
        tools.add(
                "search_memories",
                Operation.SEARCH_REFINEMENT,
                "Inside a refinement session: find ledger memories by keywords and a created_at range, to spot clusters.",
                withSpace()
                        .string("query", "Words to look for; empty: every ledger memory in the range", false)
                        .string("created_after", "Inclusive, ISO-8601", false)
                        .string("created_before", "Exclusive, ISO-8601", false)
                        .integer("limit", "1 to 500, default 50", 1, 500, false),
                Set.of(Role.AGENT),
                c -> RefinementSearchJson.of(refinements.search(
                        c.space(), c.caller().actor(), current, args.body(c.arguments(), RefinementSearchBody.class))));
        tools.add(
                "consolidate_memories",
                Operation.REFINEMENT_CONSOLIDATE,
                """
                Inside a refinement session: atomically replace several memories by one synthesized memory (the \
                inputs are soft-deleted, the earliest created_at is kept). Constitutional memories cannot be merged.""",
                write().strings("ids", "The memories to merge (at least 2)", true)
                        .string("new_content", "The synthesized memory", true)
                        .string("reason", "Why", false),
                Set.of(Role.AGENT),
                c -> {
                    Map<String, Object> a = new LinkedHashMap<>(c.arguments());
                    a.put("content", a.remove("new_content"));
                    return WriteResponse.of(refinements.consolidate(
                            c.write(), current, requests.consolidate(c.space(), args.body(a, ConsolidateBody.class))));
                });
        tools.add(
                "update_memory",
                Operation.REFINEMENT_UPDATE_MEMORY,
                "Inside a refinement session: tighten a memory's phrasing.",
                versionedWrite().string("id", "The memory", true).string("content", "The new text", true),
                Set.of(Role.AGENT),
                c -> WriteResponse.of(refinements.update(
                        c.write(),
                        current,
                        requests.update(
                                text(c.arguments(), "id"),
                                args.body(
                                        Map.of("content", c.arguments().getOrDefault("content", "")),
                                        UpdateMemoryBody.class)))));
        tools.add(
                "delete_memory",
                Operation.REFINEMENT_DELETE_MEMORY,
                "Inside a refinement session: prune an obsolete memory (soft delete; constitutional ones cannot be deleted).",
                versionedWrite().string("id", "The memory", true).string("reason", "Why", false),
                Set.of(Role.AGENT),
                c -> WriteResponse.of(refinements.delete(
                        c.write(), current, text(c.arguments(), "id"), optional(c.arguments(), "reason"))));
        tools.add(
                "protect_memory",
                Operation.REFINEMENT_PROTECT_MEMORY,
                """
                Inside a refinement session: mark a core memory constitutional, an identity-critical commitment that \
                later sessions can neither delete nor consolidate.""",
                versionedWrite().string("id", "The memory", true),
                Set.of(Role.AGENT),
                c -> WriteResponse.of(refinements.protect(c.write(), current, text(c.arguments(), "id"))));
        tools.add(
                "complete_refinement",
                Operation.COMPLETE_REFINEMENT,
                """
                End the refinement session with your summary: the outcome (e.g. "Compressed 50 -> 3; saved ~2000 tokens; \
                protected 5 constitutional memories") is recorded in the audit log and as a journal memory.""",
                write().string("summary", "What you did and why", true),
                Set.of(Role.AGENT),
                c -> CompletionJson.of(refinements.complete(
                        c.write(),
                        current,
                        args.body(c.arguments(), CompleteRefinementBody.class).summary())));
        return tools.build();
    }
}
