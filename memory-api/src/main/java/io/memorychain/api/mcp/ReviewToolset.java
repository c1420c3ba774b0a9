package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.versionedWrite;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.proposals.ProposalDraft;
import io.memorychain.api.proposals.ProposalJson;
import io.memorychain.api.proposals.ProposalListJson;
import io.memorychain.api.proposals.ProposalReview;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.proposals.ProposalWriteJson;
import io.memorychain.api.reflections.ReflectionDecisionBody;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Sub-agent proposals (sub-agents propose; the main agent, a person or an admin reviews) and the reflection engine. */
@Singleton
class ReviewToolset implements Toolset {

    private final ProposalService proposals;
    private final ReflectionService reflections;
    private final ToolArgs args;

    ReviewToolset(ProposalService proposals, ReflectionService reflections, ToolArgs args) {
        this.proposals = proposals;
        this.reflections = reflections;
        this.args = args;
    }

    @Override
    public int order() {
        return 90;
    }

    @Override
    public List<MemoryTool> tools() {
        ToolList tools = new ToolList();
        tools.add(
                "memory_propose",
                Operation.PROPOSE,
                """
                Propose a memory for the main agent to review: sub-agents cannot write memory directly. Give one \
                self-contained statement, the suggested store and what triggered it; the reviewer commits, rejects or \
                defers it.""",
                write().string("content", "What should be remembered", true)
                        .enumeration(
                                "kind",
                                "Suggested store: semantic (default), episodic or procedural",
                                List.of("semantic", "episodic", "procedural"),
                                false)
                        .string("category", "A configured category", false)
                        .strings("tags", "Topical tags", false)
                        .strings("entities", "Entity ids it is about, e.g. preference--source-quality", false)
                        .integer("importance", "1 to 5; default 3", 1, 5, false)
                        .enumeration("confidence", "How sure you are", List.of("high", "medium", "low"), false)
                        .bool("core_worthy", "Belongs in core memory")
                        .string(
                                "trigger",
                                "Why now: the user said 'remember this', or auto-detected during a task",
                                false),
                Set.of(Role.SUBAGENT, Role.AGENT, Role.WORKER),
                c -> ProposalWriteJson.of(proposals.propose(c.write(), args.body(c.arguments(), ProposalDraft.class))));
        tools.add(
                "proposals_review",
                Operation.COMMIT_PROPOSAL,
                """
                Review sub-agents' memory proposals. action=list shows the open ones, each flagged when it conflicts \
                with another proposal or a memory (same subject, different content); get shows one, whatever its status. \
                commit stores one as a memory \
                (optionally overriding kind, tier, category, tags, importance, confidence), reject drops it, defer \
                keeps it open for later.""",
                versionedWrite()
                        .enumeration(
                                "action",
                                "list, get, commit, reject or defer",
                                List.of("list", "get", "commit", "reject", "defer"),
                                true)
                        .string("id", "The proposal (get, commit, reject, defer)", false)
                        .string("reason", "Why; recorded on the chain", false)
                        .string("kind", "commit: a different store", false)
                        .enumeration("tier", "commit: core or working", List.of("core", "working"), false)
                        .string("category", "commit: a different category", false)
                        .strings("tags", "commit: the tags", false)
                        .integer("importance", "commit: 1 to 5", 1, 5, false)
                        .enumeration(
                                "confidence",
                                "commit: e.g. low for both sides of a conflict",
                                List.of("high", "medium", "low"),
                                false),
                Set.of(Role.AGENT, Role.USER, Role.ADMIN),
                this::review);
        defineReflections(tools);
        return tools.build();
    }

    private Object review(MemoryTool.Call c) {
        Map<String, Object> a = new LinkedHashMap<>(c.arguments());
        String action = text(a, "action");
        a.remove("action");
        if (action.equals("list")) {
            return ProposalListJson.of(proposals.open(c.space(), c.caller().actor()));
        }
        String id = text(a, "id");
        a.remove("id");
        if (action.equals("get")) {
            return ProposalJson.of(proposals.get(c.space(), c.caller().actor(), id));
        }
        ProposalReview review = args.body(a, ProposalReview.class);
        ProposalDecision decision = switch (action) {
            case "commit" -> ProposalDecision.COMMIT;
            case "reject" -> ProposalDecision.REJECT;
            case "defer" -> ProposalDecision.DEFER;
            default -> throw ApiException.invalid("action must be list, get, commit, reject or defer, was " + action);
        };
        return ProposalWriteJson.of(proposals.review(c.write(), id, decision, review));
    }

    /** The reflection engine (docs/architecture.md §18): the log, the manual trigger and the decision. */
    private void defineReflections(ToolList tools) {
        Schemas change = Schemas.object()
                .string("change_id", "The change of the reflection (c1, c2, ...)", true)
                .enumeration(
                        "type",
                        "Its type (unchanged)",
                        List.of(
                                "create_memory",
                                "update_memory",
                                "update_block",
                                "link_memories",
                                "archive_memory",
                                "create_procedure"),
                        true)
                .string("memory_id", "Its memory (unchanged)", false)
                .string("to_id", "Its link target (unchanged)", false)
                .string("label", "Its block label (unchanged)", false)
                .string("content", "The edited content", false)
                .string("summary", "The edited summary", false)
                .string("category", "The edited category", false)
                .integer("importance", "The edited importance", 1, 5, false)
                .string("reason", "Why it was edited", false);
        tools.add(
                "reflection_review",
                Operation.DECIDE_REFLECTION,
                """
                The reflection engine's pending reflections (sleep-time consolidation: new facts, links, core memory \
                edits, archivals and procedures, each with a reason, and questions for the user; the 10th, 25th, \
                50th and 100th are evolution milestones: summary, consolidation, synthesis, retrospective). action=list shows the reflection log and the \
                evolution record; get one by id; request asks for a new reflection; decide applies the user's answer: \
                approve (every change), approve_with_changes (edited_changes, optionally change_ids), partial \
                (change_ids) or reject. Nothing is applied without a decision; a reflection is decided once.""",
                write().enumeration(
                                "action",
                                "list, get, request or decide",
                                List.of("list", "get", "request", "decide"),
                                true)
                        .string("id", "The reflection (get, decide)", false)
                        .enumeration(
                                "decision",
                                "decide: the user's answer",
                                List.of("approve", "approve_with_changes", "partial", "reject"),
                                false)
                        .string("reason", "decide, request: why", false)
                        .enumeration(
                                "status",
                                "list: only these",
                                List.of("pending", "approved", "partially_approved", "rejected"),
                                false)
                        .strings("change_ids", "decide: the changes approved (partial, or a subset with edits)", false)
                        .objects("edited_changes", "decide: approve_with_changes: the edited changes", change, false),
                Set.of(Role.AGENT, Role.USER),
                this::reflection);
    }

    private Object reflection(MemoryTool.Call c) {
        Map<String, Object> a = new LinkedHashMap<>(c.arguments());
        String action = text(a, "action");
        return switch (action) {
            case "list" -> reflections.log(c.space(), c.caller().actor(), (String) a.get("status"));
            case "get" ->
                ReflectionJson.of(
                        reflections.get(c.space(), text(a, "id"), c.caller().actor()));
            case "request" -> {
                MemoryOutcome outcome = reflections.request(c.write(), (String) a.get("reason"));
                yield Map.of("request_id", outcome.getRequestId(), "seq", outcome.getSeq());
            }
            case "decide" -> {
                String id = text(a, "id");
                a.keySet().retainAll(Set.of("decision", "reason", "change_ids", "edited_changes"));
                yield ReflectionJson.of(reflections.decide(c.write(), id, args.body(a, ReflectionDecisionBody.class)));
            }
            default -> throw ApiException.invalid("action must be list, get, request or decide, was " + action);
        };
    }
}
