package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.versionedWrite;
import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.HistoryResponse;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.avro.MemoryFlag;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Memories: commit, recall and query, rethink, get, history, restore, pin and unpin. */
@Singleton
class MemoryToolset implements Toolset {

    private final Memories memories;
    private final AsOfReads reads;
    private final ToolArgs args;

    MemoryToolset(Memories memories, AsOfReads reads, ToolArgs args) {
        this.memories = memories;
        this.reads = reads;
        this.args = args;
    }

    @Override
    public int order() {
        return 10;
    }

    @Override
    public List<MemoryTool> tools() {
        ToolList tools = new ToolList();
        tools.add(
                "memory_commit",
                Operation.CREATE_MEMORY,
                """
                Commit something worth remembering to long-term memory: a fact or preference about the user, a decision, \
                an event, a procedure. One self-contained statement per call. It is signed onto the memory chain and \
                searchable at once.""",
                write().string("content", "What to remember, as one self-contained statement", true)
                        .enumeration(
                                "kind",
                                "semantic (fact, default), episodic (event), procedural (how-to)",
                                List.of("semantic", "episodic", "procedural"),
                                false)
                        .enumeration(
                                "tier",
                                "core (always in your context; refined in refinement sessions) or working "
                                        + "(default, recalled on demand)",
                                List.of("core", "working"),
                                false)
                        .string("category", "A configured category, e.g. preferences, goals, work", false)
                        .integer("importance", "1 (trivia) to 5 (critical); default 3", 1, 5, false)
                        .strings("tags", "2-5 topical tags", false)
                        .enumeration("confidence", "How sure you are", List.of("high", "medium", "low"), false),
                WRITERS,
                c -> WriteResponse.of(memories.create(c.write(), args.body(c.arguments(), CreateMemoryBody.class))));
        tools.add(
                "memory_recall",
                Operation.QUERY,
                """
                Recall memories relevant to a topic before a task that may need background: returns the best matches \
                as short bullets (keyword and meaning search, ranked by importance and recency).""",
                withSpace()
                        .string("query", "What to look for, in natural language", true)
                        .integer("max_results", "Most memories to return; default 5", 1, 50, false),
                READERS,
                c -> {
                    Map<String, Object> q = new LinkedHashMap<>();
                    q.put("query", c.arguments().get("query"));
                    if (c.arguments().containsKey("max_results")) {
                        q.put("top_k", c.arguments().get("max_results"));
                    }
                    return query(c, q);
                });
        tools.add(
                "memory_query",
                Operation.QUERY,
                """
                Search memory with full control (memory.query): filters, categories, return format, a token budget, \
                a similarity threshold, dormant memories and a point in time. Prefer memory_recall for a plain lookup.""",
                withSpace()
                        .string("query", "What to look for", true)
                        .strings("categories", "Only these categories", false)
                        .map(
                                "filters",
                                "Metadata filters, all must hold: fields created_at, updated_at, importance, category, tags, kind, user_id, agent_id, run_id, actor_id, role, thread_id, pinned with a plain value (equality; tags: contains) or operators (eq, gt, gte, lt, lte, in, contains), e.g. {\"importance\": {\"gte\": 4}}; groups {\"AND\": [...]}, {\"OR\": [...]}, {\"NOT\": {...}}; also importance_min, importance_max, updated_after, updated_before. Dates ISO-8601",
                                false)
                        .integer("top_k", "Results; default 5", 1, 100, false)
                        .enumeration("return", "bullets (default) or full", List.of("bullets", "full"), false)
                        .integer("budget_tokens", "Token budget of the answer", 1, 100_000, false)
                        .number("threshold", "Lowest similarity (0-1) to include", false)
                        .bool("include_superseded", "Also superseded memories")
                        .bool("include_dormant", "Also dormant (decayed) memories")
                        .bool(
                                "date_filter",
                                "When the query names exactly one date (\"in May 2023\", \"last week\"),"
                                        + " only memories created on one of its days or mentioning one; otherwise dates only boost")
                        .integer(
                                "as_of_seq",
                                "Point in time: memory as it was after this seq of the chain",
                                1,
                                Integer.MAX_VALUE,
                                false)
                        .string("as_of", "Point in time: memory as it was at this ISO-8601 time", false),
                READERS,
                c -> query(c, c.arguments()));
        tools.add(
                "memory_rethink",
                Operation.CONSOLIDATE,
                """
                Consolidate several fragmented or outdated memories into one clearer understanding, atomically: the \
                inputs are superseded (kept in history) and the new memory keeps the earliest origin date. Give the ids \
                from memory_recall or memory_query and say why.""",
                write().strings("ids", "Ids of the memories to consolidate (at least 2)", true)
                        .string("content", "The consolidated understanding", true)
                        .string("reason", "Why you consolidate", false)
                        .string("summary", "One-line summary", false),
                WRITERS,
                c -> WriteResponse.of(
                        memories.consolidate(c.write(), args.body(c.arguments(), ConsolidateBody.class))));
        tools.add(
                "memory_get",
                Operation.GET_MEMORY,
                """
                Read one memory by id, whatever its state (active, superseded, soft_deleted, ...), or as it was at a \
                point in time (as_of_seq or as_of).""",
                withSpace()
                        .string("id", "The memory", true)
                        .integer("as_of_seq", "Point in time: as it was after this seq", 1, Integer.MAX_VALUE, false)
                        .string("as_of", "Point in time: as it was at this ISO-8601 time", false),
                READERS,
                c -> {
                    String id = text(c.arguments(), "id");
                    AsOf at = reads.point(
                            c.space(), optional(c.arguments(), "as_of_seq"), optional(c.arguments(), "as_of"));
                    return MemoryJson.of(reads.memory(c.space(), id, c.caller().actor(), at));
                });
        tools.add(
                "memory_history",
                Operation.GET_HISTORY,
                """
                Every change of one memory, oldest first, with who made it, why, and the memory before and after: \
                to answer "why do you remember that?" or "what did this say before?".""",
                withSpace().string("id", "The memory", true),
                READERS,
                c -> {
                    String id = text(c.arguments(), "id");
                    return new HistoryResponse(
                            id,
                            memories.history(c.space(), id, c.caller().actor()).stream()
                                    .map(HistoryEntryJson::of)
                                    .toList());
                });
        tools.add(
                "memory_restore",
                Operation.RESTORE_MEMORY,
                """
                Restore a forgotten (soft-deleted) memory: it becomes active again, with its history kept.""",
                versionedWrite().string("id", "The memory", true),
                WRITERS,
                c -> WriteResponse.of(memories.restore(c.write(), text(c.arguments(), "id"))));
        tools.add(
                "memory_pin",
                Operation.PIN_MEMORY,
                """
                Pin a memory: it never decays (fades, goes dormant or is archived) however rarely it is recalled.""",
                versionedWrite().string("id", "The memory", true),
                WRITERS,
                c -> WriteResponse.of(memories.flag(c.write(), text(c.arguments(), "id"), MemoryFlag.PINNED, true)));
        tools.add(
                "memory_unpin",
                Operation.UNPIN_MEMORY,
                "Unpin a memory: it decays again like any other.",
                versionedWrite().string("id", "The memory", true),
                WRITERS,
                c -> WriteResponse.of(memories.flag(c.write(), text(c.arguments(), "id"), MemoryFlag.PINNED, false)));
        return tools.build();
    }

    private Object query(MemoryTool.Call c, Map<String, Object> q) {
        return reads.query(c.space(), c.caller().actor(), args.body(q, QueryBody.class));
    }
}
