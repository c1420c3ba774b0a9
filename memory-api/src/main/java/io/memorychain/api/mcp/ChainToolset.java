package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.versionedWrite;
import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.ToolArgs.flag;
import static io.memorychain.api.mcp.ToolArgs.number;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.audit.AuditDigests;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.audit.AuditQuery;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.chain.ChainCheckpoints;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.erasure.Erasures;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.rollback.Rollbacks;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Accountability: the audit log and its digest, the chain's verification and signed checkpoint, erasure with its proof,
 * and the rollback dry run.
 */
@Singleton
class ChainToolset implements Toolset {

    private static final Set<Role> ANYONE = Set.of(Role.AGENT, Role.SUBAGENT, Role.USER, Role.WORKER, Role.ADMIN);

    private final AuditLog audit;
    private final AuditDigests digests;
    private final ChainVerification chain;
    private final ChainCheckpoints checkpoints;
    private final Erasures erasures;
    private final Rollbacks rollbacks;

    ChainToolset(
            AuditLog audit,
            AuditDigests digests,
            ChainVerification chain,
            ChainCheckpoints checkpoints,
            Erasures erasures,
            Rollbacks rollbacks) {
        this.audit = audit;
        this.digests = digests;
        this.chain = chain;
        this.checkpoints = checkpoints;
        this.erasures = erasures;
        this.rollbacks = rollbacks;
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "audit_log",
                        Operation.LIST_AUDIT,
                        """
                The audit log: one entry per change on the memory chain, with who made it and why. Answers "what \
                changed recently?" (order=desc), "why was this forgotten?" (memory_id), "who changed this block?" \
                (label), "what did this actor do?" (actor), "what happened to this user's memories?" (user_id).""",
                        withSpace()
                                .integer("after_seq", "Entries after this seq (default 0)", 0, Integer.MAX_VALUE, false)
                                .integer("limit", "1 to 1000, default 100", 1, 1000, false)
                                .string("memory_id", "Entries touching this memory", false)
                                .string("actor", "Entries by this actor: type:id (agent:assistant) or id", false)
                                .string(
                                        "type",
                                        "Event types, comma-separated (e.g. MemoryDeleted,MemoryExpired)",
                                        false)
                                .string("label", "Entries touching any version of this block", false)
                                .string("since", "ISO-8601 date-time, inclusive", false)
                                .string("until", "ISO-8601 date-time, exclusive", false)
                                .enumeration(
                                        "order",
                                        "asc (default) or desc (the last matches, newest first)",
                                        List.of("asc", "desc"),
                                        false)
                                .string(
                                        "user_id",
                                        "Entries touching a memory of this user (its user_id): a user's history",
                                        false),
                        READERS,
                        c -> {
                            Map<String, Object> a = c.arguments();
                            Long limit = number(a, "limit");
                            return audit.search(
                                    c.space(),
                                    c.caller().actor(),
                                    AuditQuery.of(
                                                    optional(a, "memory_id"),
                                                    optional(a, "actor"),
                                                    optional(a, "type"),
                                                    optional(a, "label"),
                                                    optional(a, "since"),
                                                    optional(a, "until"),
                                                    optional(a, "order"))
                                            .forUser(
                                                    optional(a, "user_id"),
                                                    c.caller().actor()),
                                    number(a, "after_seq"),
                                    limit == null ? null : limit.intValue());
                        })
                .add(
                        "audit_digest",
                        Operation.AUDIT_DIGEST,
                        """
                A month of the audit log summarised: counts by event type and actor, block changes and notable events, \
                also as Markdown.""",
                        withSpace().string("month", "YYYY-MM (UTC)", true),
                        READERS,
                        c -> digests.digest(c.space(), c.caller().actor(), text(c.arguments(), "month")))
                .add(
                        "chain_verify",
                        Operation.VERIFY_CHAIN,
                        """
                Verify the space's signed hash chain (links, hashes, signatures, gaps): ok, or the first bad seq and \
                why. full=true verifies from seq 1 instead of after the head verified last.""",
                        withSpace().bool("full", "Verify the whole chain from seq 1"),
                        ANYONE,
                        c -> chain.verify(c.space(), Boolean.TRUE.equals(flag(c.arguments(), "full"))))
                .add(
                        "chain_checkpoint",
                        Operation.CHAIN_CHECKPOINT,
                        """
                Verify the chain and return its head signed by the service's chain key (Ed25519): a receipt anyone can \
                check later against the chain. Refused with CHAIN_BROKEN when the chain does not verify.""",
                        withSpace(),
                        ANYONE,
                        c -> checkpoints.checkpoint(c.space()))
                .add(
                        "memory_erase",
                        Operation.ERASE_MEMORY,
                        """
                Erase a memory for good when the user demands it (crypto-shredding): its data key is destroyed, its \
                text becomes unreadable in every event of the chain and it reads [erased]; the chain still verifies. \
                Cannot be undone. Only users and admins may erase (agents are refused FORBIDDEN); erasure_proof shows \
                the proof.""",
                        versionedWrite()
                                .string("id", "The memory", true)
                                .string("reason", "Why (kept on the chain)", true),
                        ANYONE,
                        c -> WriteResponse.of(erasures.erase(
                                c.write(), text(c.arguments(), "id"), optional(c.arguments(), "reason"))))
                .add(
                        "erasure_proof",
                        Operation.ERASURE_PROOF,
                        """
                The proof of an erasure, without content: the signed MemoryErased event, the destroyed key record and \
                the chain verified up to its head.""",
                        withSpace().string("id", "The erased memory", true),
                        ANYONE,
                        c -> erasures.proof(c.space(), text(c.arguments(), "id")))
                .add(
                        "rollback_plan",
                        Operation.PLAN_ROLLBACK,
                        """
                Dry run of a rollback (admins): what would change, memory by memory, to bring back the state of one \
                memory (memory_id with to_seq or to_time), of the space (to_seq or to_time), before a refinement \
                session (session_id), before a reflection (reflection_id) or without an actor's changes (actor with \
                from_seq, to_seq). Publishes nothing.""",
                        withSpace()
                                .string("memory_id", "One memory", false)
                                .string("session_id", "Undo one refinement session", false)
                                .string("actor", "Undo an actor's changes (type:id) in from_seq..to_seq", false)
                                .string("reflection_id", "Undo one approved reflection", false)
                                .integer("from_seq", "actor: the first seq of the range", 1, Integer.MAX_VALUE, false)
                                .integer(
                                        "to_seq",
                                        "The seq whose state is restored (actor: the range's last)",
                                        1,
                                        Integer.MAX_VALUE,
                                        false)
                                .string("to_time", "The state at this ISO-8601 time", false),
                        Set.of(Role.ADMIN),
                        c -> {
                            Map<String, Object> a = c.arguments();
                            return rollbacks.planFor(
                                    c.space(),
                                    c.caller().actor(),
                                    Rollbacks.spec(
                                            optional(a, "memory_id"),
                                            optional(a, "session_id"),
                                            optional(a, "actor"),
                                            optional(a, "reflection_id"),
                                            number(a, "from_seq"),
                                            number(a, "to_seq"),
                                            optional(a, "to_time")));
                        })
                .build();
    }
}
