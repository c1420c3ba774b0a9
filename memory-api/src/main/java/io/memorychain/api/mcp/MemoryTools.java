package io.memorychain.api.mcp;

import io.memorychain.api.routing.OwnerGuard;

import io.memorychain.api.auth.AccessRules;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.blocks.BlockBody;
import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.core.CoreJson;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.markdown.AppendBody;
import io.memorychain.api.markdown.FileListJson;
import io.memorychain.api.markdown.FileWriteJson;
import io.memorychain.api.markdown.MarkdownFiles;
import io.memorychain.api.markdown.MarkdownPaths;
import io.memorychain.api.markdown.PatchBody;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.messages.Forgetting;
import io.memorychain.api.messages.MessageJson;
import io.memorychain.api.messages.Messages;
import io.memorychain.api.proposals.ProposalDraft;
import io.memorychain.api.reflections.ReflectionDecisionBody;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.api.proposals.ProposalListJson;
import io.memorychain.api.proposals.ProposalReview;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.proposals.ProposalWriteJson;
import io.memorychain.api.refinement.CompleteRefinementBody;
import io.memorychain.api.refinement.CompletionJson;
import io.memorychain.api.refinement.RefinementSearchBody;
import io.memorychain.api.refinement.RefinementSearchJson;
import io.memorychain.api.refinement.RefinementSessionJson;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.api.refinement.StartRefinementBody;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.retrieval.Retrieval;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The agent tools (docs/architecture.md §8): each one calls the same application service as its
 * REST endpoint and gRPC method, with the caller's key deciding the actor, spaces and role exactly as there.
 */
@Singleton
public class MemoryTools {

    private static final Set<Role> WRITERS = Set.of(Role.AGENT, Role.USER, Role.WORKER);
    private static final Set<Role> READERS = Set.of(Role.AGENT, Role.SUBAGENT, Role.USER, Role.WORKER);
    private static final String SPACE = "space";
    private static final String IDEMPOTENCY_KEY = "idempotency_key";
    private static final String EXPECTED_VERSION = "expected_version";
    private static final int FORGET_MATCHES = 10;

    /** The API operation each tool runs (proposals_review: list, commit, reject and defer share one scope). */
    private static final Map<String, Operation> OPERATIONS = Map.ofEntries(
            Map.entry("memory_commit", Operation.CREATE_MEMORY),
            Map.entry("memory_recall", Operation.QUERY),
            Map.entry("memory_query", Operation.QUERY),
            Map.entry("memory_rethink", Operation.CONSOLIDATE),
            Map.entry("block_get", Operation.GET_BLOCK),
            Map.entry("block_update", Operation.PUT_BLOCK),
            Map.entry("core_memory", Operation.GET_CORE),
            Map.entry("memory_forget", Operation.DELETE_MEMORY),
            Map.entry("memory_message", Operation.POST_MESSAGE),
            Map.entry("memory_list", Operation.LIST_FILES),
            Map.entry("memory_read", Operation.READ_FILE),
            Map.entry("memory_write", Operation.WRITE_FILE),
            Map.entry("memory_patch", Operation.PATCH_FILE),
            Map.entry("memory_append", Operation.APPEND_FILE),
            Map.entry("refinement_start", Operation.START_REFINEMENT),
            Map.entry("refinement_session", Operation.GET_REFINEMENT),
            Map.entry("search_memories", Operation.SEARCH_REFINEMENT),
            Map.entry("consolidate_memories", Operation.REFINEMENT_CONSOLIDATE),
            Map.entry("update_memory", Operation.REFINEMENT_UPDATE_MEMORY),
            Map.entry("delete_memory", Operation.REFINEMENT_DELETE_MEMORY),
            Map.entry("protect_memory", Operation.REFINEMENT_PROTECT_MEMORY),
            Map.entry("complete_refinement", Operation.COMPLETE_REFINEMENT),
            Map.entry("memory_propose", Operation.PROPOSE),
            Map.entry("proposals_review", Operation.COMMIT_PROPOSAL),
            Map.entry("reflection_review", Operation.DECIDE_REFLECTION));

    private final JsonMapper json;
    private final Memories memories;
    private final MemoryRequests requests;
    private final Blocks blocks;
    private final CoreMemory core;
    private final Retrieval retrieval;
    private final MarkdownFiles files;
    private final RefinementSessions refinements;
    private final ProposalService proposals;
    private final ReflectionService reflections;
    private final Messages messages;
    private final Forgetting forgetting;
    private final OwnerGuard owners;
    private final Map<String, MemoryTool> tools = new LinkedHashMap<>();

    public MemoryTools(JsonMapper json, Memories memories, MemoryRequests requests, Blocks blocks, CoreMemory core,
                       Retrieval retrieval, MarkdownFiles files, RefinementSessions refinements, ProposalService proposals,
                       ReflectionService reflections, Messages messages, Forgetting forgetting, OwnerGuard owners) {
        this.owners = owners;
        this.reflections = reflections;
        this.messages = messages;
        this.forgetting = forgetting;
        this.json = json;
        this.memories = memories;
        this.requests = requests;
        this.blocks = blocks;
        this.core = core;
        this.retrieval = retrieval;
        this.files = files;
        this.refinements = refinements;
        this.proposals = proposals;
        define();
        defineRefinement();
        defineProposals();
        defineReflections();
    }

    /** Every tool, in a stable order. */
    public List<MemoryTool> all() {
        return List.copyOf(tools.values());
    }

    /**
     * Runs a tool as the caller.
     *
     * @throws ApiException with the same codes as REST (INVALID_ARGUMENT, SPACE_NOT_ALLOWED, ROLE_NOT_ALLOWED, ...)
     */
    public Object call(String name, Principal caller, Map<String, Object> arguments) {
        MemoryTool tool = tools.get(name);
        if (tool == null) {
            throw ApiException.notFound("no tool " + name + "; tools: " + String.join(", ", tools.keySet()));
        }
        if (!tool.roles().contains(caller.role())) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, caller.role().wireName() + " keys cannot call " + name);
        }
        Map<String, Object> args = new LinkedHashMap<>(arguments == null ? Map.of() : arguments);
        String space = space(caller, tool.operation(), args.remove(SPACE));
        // a call of a space another instance owns was forwarded by the transport (McpRouting); what stays here is
        // served here, or refused when no instance can serve it now (docs/architecture.md §19)
        owners.requireServedHere(space);
        String idempotencyKey = optionalString(args.remove(IDEMPOTENCY_KEY), IDEMPOTENCY_KEY);
        Object expected = args.remove(EXPECTED_VERSION);
        if (expected != null && !(expected instanceof Integer)) {
            throw ApiException.invalid(EXPECTED_VERSION + " must be an integer");
        }
        if (expected != null && !tool.takes(EXPECTED_VERSION)) {
            throw ApiException.invalid(name + " takes no " + EXPECTED_VERSION + ": it changes no single versioned thing");
        }
        return tool.handler().handle(new MemoryTool.Call(caller, space, args, idempotencyKey, (Integer) expected));
    }

    /**
     * The space a {@code tools/call} is about, as {@link #call} will take it (its {@code space} argument, else the
     * caller's one space), or null when it cannot be told (the call then fails here as it would anyway).
     *
     * @param arguments the call's arguments (null: none)
     */
    public static String spaceOf(Principal caller, Map<String, Object> arguments) {
        Object requested = arguments == null ? null : arguments.get(SPACE);
        if (requested == null) {
            return onlySpace(caller);
        }
        return requested instanceof String space && io.memorychain.domain.Rules.isValidSpace(space) ? space : null;
    }

    /** The one space a key names exactly (no wildcard), or null. */
    private static String onlySpace(Principal caller) {
        List<String> exact = caller.spaces().stream().filter(s -> !s.endsWith("*")).toList();
        return exact.size() == 1 && caller.spaces().size() == 1 ? exact.get(0) : null;
    }

    private static String optionalString(Object value, String name) {
        if (value != null && !(value instanceof String)) {
            throw ApiException.invalid(name + " must be a string");
        }
        return (String) value;
    }

    private static String space(Principal caller, Operation operation, Object requested) {
        if (requested != null && !(requested instanceof String)) {
            throw ApiException.invalid("space must be a string");
        }
        String space = (String) requested;
        if (space == null) {
            space = onlySpace(caller);
            if (space == null) {
                throw ApiException.invalid("space is required: your key covers " + String.join(", ", caller.spaces()));
            }
        }
        // the agent tool surface serves no admin content reads, not even under a grant (docs/architecture.md §13)
        AccessRules.Scope scope = operation.scope() == AccessRules.Scope.GRANTED ? AccessRules.Scope.CONTENT
                : operation.scope();
        AccessRules.authorize(caller, scope, space, "space " + space);
        return Spaces.require(space);
    }

    private void define() {
        add("memory_commit", """
                Commit something worth remembering to long-term memory: a fact or preference about the user, a decision, \
                an event, a procedure. One self-contained statement per call. It is signed onto the memory chain and \
                searchable at once.""",
                write().string("content", "What to remember, as one self-contained statement", true)
                        .enumeration("kind", "semantic (fact, default), episodic (event), procedural (how-to)",
                                List.of("semantic", "episodic", "procedural"), false)
                        .enumeration("tier", "core (always in your context; refined in refinement sessions) or working "
                                + "(default, recalled on demand)", List.of("core", "working"), false)
                        .string("category", "A configured category, e.g. preferences, goals, work", false)
                        .integer("importance", "1 (trivia) to 5 (critical); default 3", 1, 5, false)
                        .strings("tags", "2-5 topical tags", false)
                        .enumeration("confidence", "How sure you are", List.of("high", "medium", "low"), false),
                WRITERS, c -> WriteResponse.of(memories.create(c.write(), body(c.arguments(), CreateMemoryBody.class))));
        add("memory_recall", """
                Recall memories relevant to a topic before a task that may need background: returns the best matches \
                as short bullets (keyword and meaning search, ranked by importance and recency).""",
                withSpace().string("query", "What to look for, in natural language", true)
                        .integer("max_results", "Most memories to return; default 5", 1, 50, false),
                READERS, c -> {
                    Map<String, Object> q = new LinkedHashMap<>();
                    q.put("query", c.arguments().get("query"));
                    if (c.arguments().containsKey("max_results")) {
                        q.put("top_k", c.arguments().get("max_results"));
                    }
                    return query(c, q);
                });
        add("memory_query", """
                Search memory with full control (memory.query): filters, categories, return format, a token budget and \
                a similarity threshold. Prefer memory_recall for a plain lookup.""",
                withSpace().string("query", "What to look for", true)
                        .strings("categories", "Only these categories", false)
                        .map("filters", "Metadata filters, all must hold: fields created_at, updated_at, importance, category, tags, kind, user_id, agent_id, run_id, actor_id, role, thread_id, pinned with a plain value (equality; tags: contains) or operators (eq, gt, gte, lt, lte, in, contains), e.g. {\"importance\": {\"gte\": 4}}; groups {\"AND\": [...]}, {\"OR\": [...]}, {\"NOT\": {...}}; also importance_min, importance_max, updated_after, updated_before. Dates ISO-8601", false)
                        .integer("top_k", "Results; default 5", 1, 100, false)
                        .enumeration("return", "bullets (default) or full", List.of("bullets", "full"), false)
                        .integer("budget_tokens", "Token budget of the answer", 1, 100_000, false)
                        .number("threshold", "Lowest similarity (0-1) to include", false)
                        .bool("include_superseded", "Also superseded memories")
                        .bool("date_filter", "When the query names exactly one date (\"in May 2023\", \"last week\"),"
                                + " only memories created on one of its days or mentioning one; otherwise dates only boost"),
                READERS, c -> query(c, c.arguments()));
        add("memory_rethink", """
                Consolidate several fragmented or outdated memories into one clearer understanding, atomically: the \
                inputs are superseded (kept in history) and the new memory keeps the earliest origin date. Give the ids \
                from memory_recall or memory_query and say why.""",
                write().strings("ids", "Ids of the memories to consolidate (at least 2)", true)
                        .string("content", "The consolidated understanding", true)
                        .string("reason", "Why you consolidate", false)
                        .string("summary", "One-line summary", false),
                WRITERS, c -> WriteResponse.of(memories.consolidate(c.write(), body(c.arguments(), ConsolidateBody.class))));
        add("block_get", "Read one labelled core block (persona, user_profile, goals, knowledge, critical).",
                withSpace().string("label", "The block label", true),
                READERS, c -> MemoryJson.of(blocks.get(c.space(), text(c.arguments(), "label"))));
        add("block_update", """
                Replace a labelled core block (persona, user_profile, goals, knowledge, critical): persistent context \
                about yourself or the user that is injected at the start of every turn. Send the whole new text.""",
                versionedWrite().string("label", "The block label", true)
                        .string("content", "The whole new block text", true)
                        .bool("core", "Inject into context (default true)"),
                WRITERS, c -> {
                    Map<String, Object> args = new LinkedHashMap<>(c.arguments());
                    String label = text(args, "label");
                    args.remove("label");
                    return WriteResponse.of(blocks.put(c.write(), label, body(args, BlockBody.class)));
                });
        add("core_memory", "Your core memory as injected at the start of a turn: blocks and core memories, with its token count.",
                withSpace(), READERS, c -> CoreJson.of(core.read(c.space(), c.caller().actor())));
        add("memory_forget", """
                Forget memories the user asks you to forget, in two steps. First call with a query: it lists the \
                matching memories and changes nothing; show them to the user. Then, once the user confirms, call again \
                with confirm=true and the ids to forget: they are archived (soft-deleted, recoverable by an admin).""",
                write().string("query", "What the user wants forgotten (first call)", false)
                        .strings("ids", "The ids to forget (second call)", false)
                        .bool("confirm", "true to forget the given ids")
                        .string("reason", "Why, as the user said it", false),
                WRITERS, this::forget);
        add("memory_message", """
                Pass the user's message when it asks you to remember, forget or reflect ("remember that ...", "don't \
                forget ...", "forget about ...", "reflect on ...", "what do you remember about ...?"). remember: stored \
                at once, routed into a memory, its entities and relations. forget: lists the matches and a confirmation \
                token and deletes nothing; show the matches, and once the user confirms call again with confirm_token \
                (soft delete; permanent deletion is not available). reflect: requests a reflection. recall: the \
                matching memories. The answer says what was done (trigger none: nothing stored).""",
                write().string("message", "The user's message (not needed with confirm_token)", false)
                        .string("user_id", "The user the message is from", false)
                        .string("thread_id", "The conversation thread", false)
                        .string("run_id", "The run", false)
                        .string("confirm_token", "confirmation.token of a forget answer, once the user confirmed", false)
                        .strings("memory_ids", "With confirm_token: only these of its memories", false),
                Set.of(Role.AGENT, Role.USER), this::message);
        add("memory_list", "List the Markdown files of your memory (MEMORY.md, facts/<category>.md, episodes/YYYY-MM.md, "
                        + "procedures/<name>.md) with their one-line summaries and sizes.",
                withSpace(), READERS, c -> FileListJson.of(files.list(c.space(), c.caller().actor())));
        add("memory_read", "Read one Markdown memory file, e.g. MEMORY.md or facts/preferences.md.",
                withSpace().string("path", "The file path from memory_list", true),
                READERS, c -> Map.of("path", text(c.arguments(), "path"), "text", files.read(c.space(), c.caller().actor(),
                        MarkdownPaths.parse(text(c.arguments(), "path"))).text()));
        add("memory_write", """
                Replace a Markdown memory file with new text: added bullets become memories, changed ones updates, \
                removed ones deletions. Read it first and keep what should stay.""",
                write().string("path", "The file path", true).string("text", "The whole new file", true)
                        .string("if_match", "The file's etag from memory_read, to refuse a concurrent change", false),
                WRITERS, c -> FileWriteJson.of(files.write(c.write(), MarkdownPaths.parse(text(c.arguments(), "path")),
                        text(c.arguments(), "text"), optional(c.arguments(), "if_match"))));
        add("memory_patch", """
                Edit a Markdown memory file by replacing exact text: each old_text must occur exactly once. Returns how \
                many edits were applied; nothing changes if one does not match.""",
                write().string("path", "The file path", true)
                        .objects("edits", "Replacements, applied in order", Schemas.object()
                                .string("old_text", "Exact text to replace", true)
                                .string("new_text", "Replacement text", true), true),
                WRITERS, c -> FileWriteJson.of(files.patch(c.write(), MarkdownPaths.parse(text(c.arguments(), "path")),
                        body(Map.of("edits", c.arguments().getOrDefault("edits", List.of())), PatchBody.class).textEdits(),
                        null)));
        add("memory_append", "Append entries to a Markdown memory file (a '- ' bullet per memory), creating the file if needed.",
                write().string("path", "The file path, e.g. facts/preferences.md", true)
                        .string("text", "The entries to append", true),
                WRITERS, c -> FileWriteJson.of(files.append(c.write(), MarkdownPaths.parse(text(c.arguments(), "path")),
                        body(Map.of("text", c.arguments().getOrDefault("text", "")), AppendBody.class).text(), null)));
    }

    /** Refinement sessions and their knife tools; every knife tool works only inside the space's open session. */
    private void defineRefinement() {
        String current = RefinementSessions.CURRENT;
        add("refinement_start", """
                Start a refinement session for a space (admin): exact duplicates are removed first, then the agent \
                gets its core ledger, its token count and the target, and compresses it with the knife tools.""",
                write().integer("target_tokens", "Core token budget to reach; default 5,000", 1, 1_000_000, false)
                        .string("reason", "Why", false),
                Set.of(Role.ADMIN), c -> {
                    StartRefinementBody start = body(c.arguments(), StartRefinementBody.class);
                    return RefinementSessionJson.of(refinements.start(c.write(), start.targetTokens(), start.reason()));
                });
        add("refinement_session", """
                Your open refinement session: the ledger of your core memories (id, content, created_at, tags, flags), \
                current core tokens and the target. Compress: merge many granular memories into fewer dense laws, \
                tighten phrasing, drop obsolete entries, protect identity-critical commitments.""",
                withSpace(), Set.of(Role.AGENT), c -> RefinementSessionJson.of(refinements.session(c.space(), current,
                        c.caller().actor())));
        add("search_memories", "Inside a refinement session: find ledger memories by keywords and a created_at range, to spot clusters.",
                withSpace().string("query", "Words to look for; empty: every ledger memory in the range", false)
                        .string("created_after", "Inclusive, ISO-8601", false)
                        .string("created_before", "Exclusive, ISO-8601", false)
                        .integer("limit", "1 to 500, default 50", 1, 500, false),
                Set.of(Role.AGENT), c -> RefinementSearchJson.of(refinements.search(c.space(), c.caller().actor(), current,
                        body(c.arguments(), RefinementSearchBody.class))));
        add("consolidate_memories", """
                Inside a refinement session: atomically replace several memories by one synthesized memory (the \
                inputs are soft-deleted, the earliest created_at is kept). Constitutional memories cannot be merged.""",
                write().strings("ids", "The memories to merge (at least 2)", true)
                        .string("new_content", "The synthesized memory", true)
                        .string("reason", "Why", false),
                Set.of(Role.AGENT), c -> {
                    Map<String, Object> args = new LinkedHashMap<>(c.arguments());
                    args.put("content", args.remove("new_content"));
                    return WriteResponse.of(refinements.consolidate(c.write(), current,
                            requests.consolidate(c.space(), body(args, ConsolidateBody.class))));
                });
        add("update_memory", "Inside a refinement session: tighten a memory's phrasing.",
                versionedWrite().string("id", "The memory", true).string("content", "The new text", true),
                Set.of(Role.AGENT), c -> WriteResponse.of(refinements.update(c.write(), current, requests.update(
                        text(c.arguments(), "id"), body(Map.of("content", c.arguments().getOrDefault("content", "")),
                                UpdateMemoryBody.class)))));
        add("delete_memory", "Inside a refinement session: prune an obsolete memory (soft delete; constitutional ones cannot be deleted).",
                versionedWrite().string("id", "The memory", true).string("reason", "Why", false),
                Set.of(Role.AGENT), c -> WriteResponse.of(refinements.delete(c.write(), current, text(c.arguments(), "id"),
                        optional(c.arguments(), "reason"))));
        add("protect_memory", """
                Inside a refinement session: mark a core memory constitutional, an identity-critical commitment that \
                later sessions can neither delete nor consolidate.""",
                versionedWrite().string("id", "The memory", true),
                Set.of(Role.AGENT), c -> WriteResponse.of(refinements.protect(c.write(), current, text(c.arguments(), "id"))));
        add("complete_refinement", """
                End the refinement session with your summary: the outcome (e.g. "Compressed 50 -> 3; saved ~2000 tokens; \
                protected 5 constitutional memories") is recorded in the audit log and as a journal memory.""",
                write().string("summary", "What you did and why", true),
                Set.of(Role.AGENT), c -> CompletionJson.of(refinements.complete(c.write(), current,
                        body(c.arguments(), CompleteRefinementBody.class).summary())));
    }

    /** Sub-agent proposals: sub-agents propose; the main agent, a person or an admin reviews. */
    private void defineProposals() {
        add("memory_propose", """
                Propose a memory for the main agent to review: sub-agents cannot write memory directly. Give one \
                self-contained statement, the suggested store and what triggered it; the reviewer commits, rejects or \
                defers it.""",
                write().string("content", "What should be remembered", true)
                        .enumeration("kind", "Suggested store: semantic (default), episodic or procedural",
                                List.of("semantic", "episodic", "procedural"), false)
                        .string("category", "A configured category", false)
                        .strings("tags", "Topical tags", false)
                        .strings("entities", "Entity ids it is about, e.g. preference--source-quality", false)
                        .integer("importance", "1 to 5; default 3", 1, 5, false)
                        .enumeration("confidence", "How sure you are", List.of("high", "medium", "low"), false)
                        .bool("core_worthy", "Belongs in core memory")
                        .string("trigger", "Why now: the user said 'remember this', or auto-detected during a task", false),
                Set.of(Role.SUBAGENT, Role.AGENT, Role.WORKER), c -> ProposalWriteJson.of(proposals.propose(c.write(),
                        body(c.arguments(), ProposalDraft.class))));
        add("proposals_review", """
                Review sub-agents' memory proposals. action=list shows the open ones, each flagged when it conflicts \
                with another proposal or a memory (same subject, different content). commit stores one as a memory \
                (optionally overriding kind, tier, category, tags, importance, confidence), reject drops it, defer \
                keeps it open for later.""",
                versionedWrite().enumeration("action", "list, commit, reject or defer", List.of("list", "commit", "reject", "defer"), true)
                        .string("id", "The proposal (commit, reject, defer)", false)
                        .string("reason", "Why; recorded on the chain", false)
                        .string("kind", "commit: a different store", false)
                        .enumeration("tier", "commit: core or working", List.of("core", "working"), false)
                        .string("category", "commit: a different category", false)
                        .strings("tags", "commit: the tags", false)
                        .integer("importance", "commit: 1 to 5", 1, 5, false)
                        .enumeration("confidence", "commit: e.g. low for both sides of a conflict", List.of("high", "medium", "low"), false),
                Set.of(Role.AGENT, Role.USER, Role.ADMIN), this::review);
    }

    private Object review(MemoryTool.Call c) {
        Map<String, Object> args = new LinkedHashMap<>(c.arguments());
        String action = text(args, "action");
        args.remove("action");
        if (action.equals("list")) {
            return ProposalListJson.of(proposals.open(c.space(), c.caller().actor()));
        }
        String id = text(args, "id");
        args.remove("id");
        ProposalReview review = body(args, ProposalReview.class);
        ProposalDecision decision = switch (action) {
            case "commit" -> ProposalDecision.COMMIT;
            case "reject" -> ProposalDecision.REJECT;
            case "defer" -> ProposalDecision.DEFER;
            default -> throw ApiException.invalid("action must be list, commit, reject or defer, was " + action);
        };
        return ProposalWriteJson.of(proposals.review(c.write(), id, decision, review));
    }

    /** The reflection engine (docs/architecture.md §18): the log, the manual trigger and the decision. */
    private void defineReflections() {
        Schemas change = Schemas.object().string("change_id", "The change of the reflection (c1, c2, ...)", true)
                .enumeration("type", "Its type (unchanged)", List.of("create_memory", "update_memory", "update_block",
                        "link_memories"), true)
                .string("memory_id", "Its memory (unchanged)", false).string("to_id", "Its link target (unchanged)", false)
                .string("label", "Its block label (unchanged)", false).string("content", "The edited content", false)
                .string("summary", "The edited summary", false).string("category", "The edited category", false)
                .integer("importance", "The edited importance", 1, 5, false)
                .string("reason", "Why it was edited", false);
        add("reflection_review", """
                The reflection engine's pending reflections (sleep-time consolidation: new facts, links, core memory \
                edits, each with a reason, and questions for the user). action=list shows the reflection log and the \
                evolution record; get one by id; request asks for a new reflection; decide applies the user's answer: \
                approve (every change), approve_with_changes (edited_changes, optionally change_ids), partial \
                (change_ids) or reject. Nothing is applied without a decision; a reflection is decided once.""",
                write().enumeration("action", "list, get, request or decide",
                                List.of("list", "get", "request", "decide"), true)
                        .string("id", "The reflection (get, decide)", false)
                        .enumeration("decision", "decide: the user's answer",
                                List.of("approve", "approve_with_changes", "partial", "reject"), false)
                        .string("reason", "decide, request: why", false)
                        .enumeration("status", "list: only these", List.of("pending", "approved",
                                "partially_approved", "rejected"), false)
                        .strings("change_ids", "decide: the changes approved (partial, or a subset with edits)", false)
                        .objects("edited_changes", "decide: approve_with_changes: the edited changes", change, false),
                Set.of(Role.AGENT, Role.USER), this::reflection);
    }

    private Object reflection(MemoryTool.Call c) {
        Map<String, Object> args = new LinkedHashMap<>(c.arguments());
        String action = text(args, "action");
        return switch (action) {
            case "list" -> reflections.log(c.space(), c.caller().actor(), (String) args.get("status"));
            case "get" -> ReflectionJson.of(reflections.get(c.space(), text(args, "id"), c.caller().actor()));
            case "request" -> {
                MemoryOutcome outcome = reflections.request(c.write(), (String) args.get("reason"));
                yield Map.of("request_id", outcome.getRequestId(), "seq", outcome.getSeq());
            }
            case "decide" -> {
                String id = text(args, "id");
                args.keySet().retainAll(Set.of("decision", "reason", "change_ids", "edited_changes"));
                yield ReflectionJson.of(reflections.decide(c.write(), id, body(args, ReflectionDecisionBody.class)));
            }
            default -> throw ApiException.invalid("action must be list, get, request or decide, was " + action);
        };
    }

    private Object message(MemoryTool.Call c) {
        Map<String, Object> args = new LinkedHashMap<>(c.arguments());
        Object token = args.remove("confirm_token");
        if (token != null) {
            Object ids = args.remove("memory_ids");
            if (!args.isEmpty()) {
                throw ApiException.invalid("with confirm_token only memory_ids may be given, not "
                        + String.join(", ", args.keySet()));
            }
            Map<String, Object> confirm = new LinkedHashMap<>();
            confirm.put("token", token);
            if (ids != null) {
                confirm.put("memory_ids", ids);
            }
            return messages.confirmForget(c.space(), c.caller().actor(), body(confirm, MessageJson.ConfirmBody.class));
        }
        args.remove("memory_ids");
        return messages.handle(c.space(), c.caller().actor(), c.idempotencyKey(), body(args, MessageJson.Body.class));
    }

    private Object forget(MemoryTool.Call c) {
        Map<String, Object> args = c.arguments();
        if (!Boolean.TRUE.equals(args.get("confirm"))) {
            String query = text(args, "query");
            QueryJson.Answer answer = forgetting.matches(c.space(), c.caller().actor(), query, FORGET_MATCHES);
            return Map.of("matches", answer.items(), "confirmed", false, "next",
                    "Nothing was forgotten yet. Show these to the user; to forget some, call memory_forget again with "
                            + "confirm=true and their ids.");
        }
        Object ids = args.get("ids");
        if (!(ids instanceof List<?> list) || list.isEmpty()) {
            throw ApiException.invalid("confirm=true needs the ids to forget (from the first call's matches)");
        }
        String reason = optional(args, "reason");
        List<Object> forgotten = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            forgotten.add(WriteResponse.of(forgetting.forget(c.write(i), String.valueOf(list.get(i)), reason)));
        }
        return Map.of("forgotten", forgotten, "confirmed", true);
    }

    private Object query(MemoryTool.Call c, Map<String, Object> q) {
        return retrieval.query(c.space(), c.caller().actor(), body(q, QueryBody.class));
    }

    private void add(String name, String description, Schemas input, Set<Role> roles, MemoryTool.Handler handler) {
        Operation operation = Objects.requireNonNull(OPERATIONS.get(name), () -> "no operation for the tool " + name);
        tools.put(name, new MemoryTool(name, description, input.build(), operation, roles, handler));
    }

    private static Schemas withSpace() {
        return Schemas.object().string(SPACE, "The memory space; default: the one space your key covers", false);
    }

    /** A write tool's arguments: the space and a key that makes a retried call apply once. */
    private static Schemas write() {
        return withSpace().string(IDEMPOTENCY_KEY, "Any unique string; a retry with the same key applies the change "
                + "once and returns the first answer", false);
    }

    /** A write of one existing thing: also the version read before (optimistic concurrency). */
    private static Schemas versionedWrite() {
        return write().integer(EXPECTED_VERSION, "The version you read; the change is refused with VERSION_CONFLICT "
                + "if it changed since", 1, Integer.MAX_VALUE, false);
    }

    /** Binds tool arguments to the REST body type, with its strict rules (unknown or mistyped fields are refused). */
    private <T> T body(Map<String, Object> arguments, Class<T> type) {
        try {
            return json.readValue(json.writeValueAsBytes(arguments), Argument.of(type));
        } catch (IOException | RuntimeException e) {
            throw ApiException.invalid("invalid arguments: " + firstLine(e.getMessage()));
        }
    }

    private static String text(Map<String, Object> args, String name) {
        Object value = args.get(name);
        if (!(value instanceof String s) || s.isBlank()) {
            throw ApiException.invalid(name + " is required (a string)");
        }
        return s;
    }

    private static String optional(Map<String, Object> args, String name) {
        Object value = args.get(name);
        return value == null ? null : String.valueOf(value);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
