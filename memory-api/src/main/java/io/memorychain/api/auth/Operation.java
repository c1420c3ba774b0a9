package io.memorychain.api.auth;

import static io.memorychain.api.auth.AccessRules.Scope.ADMIN;
import static io.memorychain.api.auth.AccessRules.Scope.CONTENT;
import static io.memorychain.api.auth.AccessRules.Scope.GOVERNANCE;
import static io.memorychain.api.auth.AccessRules.Scope.GRANTED;
import static io.memorychain.api.auth.AccessRules.Scope.KEYS;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every operation of the API, what it touches and which transports carry it: the one catalogue that the REST filter (by
 * route), the gRPC interceptor (by method) and the MCP tools (by the operation each tool runs) all ask before the
 * operation runs. A route or method missing here is refused to admins as content (fail closed).
 *
 * <p>Each operation names its REST route, its gRPC method and its MCP tools, or says why a transport does not carry it
 * ({@link Carriage#exemption}); {@code TransportParityTest} fails on an operation a transport lacks without a reason
 * and on a route, method or tool the catalogue does not list.
 *
 * <p>REST routes are a method and a path below {@code /v1/spaces/{space}} ({@code S}), or below {@code /v1}.
 */
public enum Operation {
    CREATE_MEMORY(CONTENT, rest("POST S/memories"), rpc("CreateMemory"), tools("memory_commit")),
    GET_MEMORY(GRANTED, rest("GET S/memories/ID"), rpc("GetMemory"), tools("memory_get")),
    LIST_MEMORIES(GRANTED, rest("GET S/memories"), rpc("ListMemories"), exempt(Why.PAGING)),
    UPDATE_MEMORY(CONTENT, rest("PATCH S/memories/ID"), rpc("UpdateMemory"), exempt(Why.AGENT_EDITS)),
    DELETE_MEMORY(CONTENT, rest("DELETE S/memories/ID"), rpc("DeleteMemory"), tools("memory_forget")),
    RESTORE_MEMORY(CONTENT, rest("POST S/memories/ID:restore"), rpc("RestoreMemory"), tools("memory_restore")),
    PROTECT_MEMORY(GOVERNANCE, rest("POST S/memories/ID:protect"), rpc("ProtectMemory"), exempt(Why.PROTECT)),
    UNPROTECT_MEMORY(GOVERNANCE, rest("POST S/memories/ID:unprotect"), rpc("UnprotectMemory"), exempt(Why.ADMIN_ONLY)),
    /** Erasure (docs/architecture.md §12): admins and users, the sequencer's rule (FORBIDDEN for the others). */
    ERASE_MEMORY(GOVERNANCE, rest("POST S/memories/ID:erase"), rpc("EraseMemory"), tools("memory_erase")),
    /** An admin's explicit purge of a soft-deleted memory (the sequencer: FORBIDDEN for agents and users). */
    PURGE_MEMORY(GOVERNANCE, rest("POST S/memories/ID:purge"), rpc("PurgeMemory"), exempt(Why.ADMIN_ONLY)),
    /** The proof of an erasure: chain coordinates and key record, no content. */
    ERASURE_PROOF(GOVERNANCE, rest("GET S/memories/ID/erasure"), rpc("GetErasureProof"), tools("erasure_proof")),
    PIN_MEMORY(CONTENT, rest("POST S/memories/ID:pin"), rpc("PinMemory"), tools("memory_pin")),
    UNPIN_MEMORY(CONTENT, rest("POST S/memories/ID:unpin"), rpc("UnpinMemory"), tools("memory_unpin")),
    CONSOLIDATE(CONTENT, rest("POST S/consolidations"), rpc("Consolidate"), tools("memory_rethink")),
    GET_HISTORY(CONTENT, rest("GET S/memories/ID/history"), rpc("GetHistory"), tools("memory_history")),
    PUT_BLOCK(CONTENT, rest("PUT S/blocks/ID"), rpc("PutBlock"), tools("block_update")),
    GET_BLOCK(CONTENT, rest("GET S/blocks/ID"), rpc("GetBlock"), tools("block_get")),
    GET_CORE(CONTENT, rest("GET S/core"), rpc("GetCore"), tools("core_memory")),
    QUERY(GRANTED, rest("POST S/query"), rpc("Query"), tools("memory_recall", "memory_query")),
    CONTEXT(CONTENT, rest("POST S/context"), rpc("Context"), exempt(Why.CONTEXT)),
    LINK(CONTENT, rest("POST S/memories/ID/links"), rpc("Link"), tools("memory_link")),
    UNLINK(CONTENT, rest("DELETE S/memories/ID/links/ID"), rpc("Unlink"), tools("memory_unlink")),
    GET_RELATIONS(CONTENT, rest("GET S/memories/ID/relations"), rpc("GetRelations"), tools("memory_relations")),
    LIST_AUDIT(CONTENT, rest("GET S/audit"), rpc("ListAudit"), tools("audit_log")),
    AUDIT_DIGEST(CONTENT, rest("GET S/audit/digest"), rpc("GetAuditDigest"), tools("audit_digest")),
    /** Operational event counts (docs/architecture.md §6 view-ops): metadata, no content, so admins may read them. */
    LIST_OPS(GOVERNANCE, rest("GET S/ops"), rpc("ListOps"), exempt(Why.OPERATORS)),
    EXPORT_SPACE(GRANTED, rest("GET S/export"), rpc("ExportSpace"), exempt(Why.BULK)),
    IMPORT_SPACE(CONTENT, rest("POST S/import"), rpc("ImportSpace"), exempt(Why.BULK)),
    /** A stream (server-sent events over REST): charged once, when it opens. */
    WATCH_CHANGES(CONTENT, rest("GET S/changes"), rpc("WatchChanges"), exempt(Why.STREAM)),
    VERIFY_CHAIN(GOVERNANCE, rest("GET S/chain/verify"), rpc("VerifyChain"), tools("chain_verify")),
    CHAIN_CHECKPOINT(GOVERNANCE, rest("GET S/chain/checkpoint"), rpc("GetChainCheckpoint"), tools("chain_checkpoint")),
    /** The events themselves, content included: refused to admins like every content read. */
    EXPORT_CHAIN(CONTENT, rest("GET S/chain/export"), rpc("ExportChain"), exempt(Why.BULK)),
    /** The chain's public keys: over REST served without a key ({@code GET /v1/chain/keys}), over gRPC to any key. */
    CHAIN_KEYS(GOVERNANCE, exempt(Why.PUBLIC_KEYS), rpc("GetChainKeys"), exempt(Why.VERIFIERS)),
    /** Key rotation (docs/architecture.md §4): admins only, the sequencer's rule (FORBIDDEN for the others). */
    ROTATE_CHAIN_KEY(GOVERNANCE, rest("POST S/chain/keys:rotate"), rpc("RotateChainKey"), exempt(Why.CHAIN_KEYS)),
    MARK_CHAIN_KEY_COMPROMISED(
            GOVERNANCE,
            rest("POST S/chain/keys/ID:compromised"),
            rpc("MarkChainKeyCompromised"),
            exempt(Why.CHAIN_KEYS)),
    LIST_FILES(CONTENT, rest("GET S/files"), rpc("ListFiles"), tools("memory_list")),
    READ_FILE(CONTENT, rest("GET S/files/PATH"), rpc("ReadFile"), tools("memory_read")),
    WRITE_FILE(CONTENT, rest("PUT S/files/PATH"), rpc("WriteFile"), tools("memory_write")),
    PATCH_FILE(CONTENT, rest("POST S/files/PATH:patch"), rpc("PatchFile"), tools("memory_patch")),
    APPEND_FILE(CONTENT, rest("POST S/files/PATH:append"), rpc("AppendFile"), tools("memory_append")),
    LIST_REFLECTIONS(CONTENT, rest("GET S/reflections"), rpc("ListReflections"), tools("reflection_review")),
    GET_REFLECTION(CONTENT, rest("GET S/reflections/ID"), rpc("GetReflection"), tools("reflection_review")),
    REQUEST_REFLECTION(GOVERNANCE, rest("POST S/reflections"), rpc("RequestReflection"), tools("reflection_review")),
    DECIDE_REFLECTION(
            CONTENT, rest("POST S/reflections/ID:decide"), rpc("DecideReflection"), tools("reflection_review")),
    /** A user message with remember / forget / reflect / recall triggers (docs/architecture.md §20). */
    POST_MESSAGE(CONTENT, rest("POST S/messages"), rpc("PostMessage"), tools("memory_message")),
    CONFIRM_FORGET(CONTENT, rest("POST S/messages:confirm-forget"), rpc("ConfirmForget"), tools("memory_message")),
    GET_PROFILE(CONTENT, rest("GET S/profile"), rpc("GetProfile"), tools("profile_get")),
    GET_PROFILE_FIELD(CONTENT, rest("GET S/profile/ID"), rpc("GetProfileField"), tools("profile_get")),
    SET_PROFILE_FIELD(CONTENT, rest("PUT S/profile/ID"), rpc("SetProfileField"), tools("profile_set")),
    LIST_CONSENTS(CONTENT, rest("GET S/consents"), rpc("ListConsents"), tools("consent_list")),
    /** Only the user decides (the sequencer: FORBIDDEN for any other actor type). */
    DECIDE_CONSENT(CONTENT, rest("POST S/consents/ID:decide"), rpc("DecideConsent"), tools("consent_decide")),
    /** Alerts name a block, its version and who changed it, never content: governance, admins included. */
    LIST_ALERTS(GOVERNANCE, rest("GET S/alerts"), rpc("ListAlerts"), tools("alert_list")),
    /** Users and admins (the sequencer: FORBIDDEN for any other actor type). */
    ACKNOWLEDGE_ALERT(
            GOVERNANCE, rest("POST S/alerts/ID:acknowledge"), rpc("AcknowledgeAlert"), tools("alert_acknowledge")),
    START_REFINEMENT(GOVERNANCE, rest("POST S/refinements"), rpc("StartRefinement"), tools("refinement_start")),
    LIST_REFINEMENTS(GOVERNANCE, rest("GET S/refinements"), rpc("ListRefinements"), exempt(Why.PAST_SESSIONS)),
    GET_REFINEMENT(GOVERNANCE, rest("GET S/refinements/ID"), rpc("GetRefinement"), tools("refinement_session")),
    SEARCH_REFINEMENT(
            GOVERNANCE, rest("POST S/refinements/ID/search"), rpc("SearchRefinement"), tools("search_memories")),
    REFINEMENT_CONSOLIDATE(
            GOVERNANCE,
            rest("POST S/refinements/ID/consolidations"),
            rpc("RefinementConsolidate"),
            tools("consolidate_memories")),
    REFINEMENT_UPDATE_MEMORY(
            GOVERNANCE,
            rest("PATCH S/refinements/ID/memories/ID"),
            rpc("RefinementUpdateMemory"),
            tools("update_memory")),
    REFINEMENT_DELETE_MEMORY(
            GOVERNANCE,
            rest("DELETE S/refinements/ID/memories/ID"),
            rpc("RefinementDeleteMemory"),
            tools("delete_memory")),
    REFINEMENT_PROTECT_MEMORY(
            GOVERNANCE,
            rest("POST S/refinements/ID/memories/ID:protect"),
            rpc("RefinementProtectMemory"),
            tools("protect_memory")),
    COMPLETE_REFINEMENT(
            GOVERNANCE,
            rest("POST S/refinements/ID:complete"),
            rpc("CompleteRefinement"),
            tools("complete_refinement")),
    PROPOSE(GOVERNANCE, rest("POST S/proposals"), rpc("Propose"), tools("memory_propose")),
    LIST_PROPOSALS(GOVERNANCE, rest("GET S/proposals"), rpc("ListProposals"), tools("proposals_review")),
    GET_PROPOSAL(GOVERNANCE, rest("GET S/proposals/ID"), rpc("GetProposal"), tools("proposals_review")),
    COMMIT_PROPOSAL(GOVERNANCE, rest("POST S/proposals/ID:commit"), rpc("CommitProposal"), tools("proposals_review")),
    REJECT_PROPOSAL(GOVERNANCE, rest("POST S/proposals/ID:reject"), rpc("RejectProposal"), tools("proposals_review")),
    DEFER_PROPOSAL(GOVERNANCE, rest("POST S/proposals/ID:defer"), rpc("DeferProposal"), tools("proposals_review")),
    /**
     * Contradictions (docs/architecture.md §10): ids and resolutions, no content. Flagging: agents, users, admins and
     * workers; resolving: agents, users and admins (the sequencer's rules, FORBIDDEN otherwise).
     */
    LIST_CONTRADICTIONS(
            GOVERNANCE, rest("GET S/contradictions"), rpc("ListContradictions"), tools("contradictions_review")),
    FLAG_CONTRADICTION(
            GOVERNANCE, rest("POST S/contradictions"), rpc("FlagContradiction"), tools("contradictions_review")),
    RESOLVE_CONTRADICTION(
            GOVERNANCE,
            rest("POST S/contradictions/ID:resolve"),
            rpc("ResolveContradiction"),
            tools("contradictions_review")),
    /** Mechanic's Exception grants (docs/architecture.md §13): who may do what is the sequencer's rule. */
    REQUEST_GRANT(GOVERNANCE, rest("POST S/grants"), rpc("RequestGrant"), exempt(Why.GRANTS)),
    LIST_GRANTS(GOVERNANCE, rest("GET S/grants"), rpc("ListGrants"), exempt(Why.GRANTS)),
    GET_GRANT(GOVERNANCE, rest("GET S/grants/ID"), rpc("GetGrant"), exempt(Why.GRANTS)),
    CONSENT_GRANT(GOVERNANCE, rest("POST S/grants/ID:consent"), rpc("ConsentGrant"), exempt(Why.GRANTS)),
    REVOKE_GRANT(GOVERNANCE, rest("POST S/grants/ID:revoke"), rpc("RevokeGrant"), exempt(Why.GRANTS)),
    GRANT_READS(GOVERNANCE, rest("GET S/grants/ID/reads"), rpc("ListGrantReads"), exempt(Why.GRANTS)),
    /** Agents' checkpoints (off-chain working state per user and thread): the space's agents, sub-agents and users. */
    SAVE_CHECKPOINT(CONTENT, rest("POST S/checkpoints"), rpc("SaveCheckpoint"), exempt(Why.CHECKPOINTS)),
    GET_CHECKPOINT(CONTENT, rest("GET S/checkpoints/ID"), rpc("GetCheckpoint"), exempt(Why.CHECKPOINTS)),
    LIST_CHECKPOINTS(CONTENT, rest("GET S/checkpoints"), rpc("ListCheckpoints"), exempt(Why.CHECKPOINTS)),
    DELETE_CHECKPOINTS(CONTENT, rest("DELETE S/checkpoints"), rpc("DeleteCheckpoints"), exempt(Why.CHECKPOINTS)),
    PLAN_ROLLBACK(ADMIN, rest("POST S/rollback/plan"), rpc("PlanRollback"), tools("rollback_plan")),
    APPLY_ROLLBACK(ADMIN, rest("POST S/rollback"), rpc("ApplyRollback"), exempt(Why.APPLY_ROLLBACK)),
    ISSUE_KEY(KEYS, rest("POST keys"), rpc("IssueKey"), exempt(Why.KEYS)),
    LIST_KEYS(KEYS, rest("GET keys"), rpc("ListKeys"), exempt(Why.KEYS)),
    REVOKE_KEY(KEYS, rest("DELETE keys/ID"), rpc("RevokeKey"), exempt(Why.KEYS)),
    WHO_AM_I(GOVERNANCE, rest("GET me"), rpc("WhoAmI"), exempt(Why.WHO_AM_I)),
    /** The MCP endpoint itself: each tool then checks its own operation. */
    MCP(GOVERNANCE, exempt(Why.MCP_ENDPOINT), exempt(Why.MCP_ENDPOINT), exempt(Why.MCP_ITSELF));

    /** Why a transport does not carry an operation (printed by {@code TransportParityTest}). */
    private static final class Why {
        static final String KEYS = "key management is not an agent tool";
        static final String CHAIN_KEYS = "the chain's signing keys are an operator's concern, never an agent tool";
        static final String BULK = "a bulk transfer of a whole space or chain, not an agent tool";
        static final String ADMIN_ONLY = "an admin's governance action, never an agent's";
        static final String PAGING = "agents find memories by meaning (memory_recall, memory_query, memory_get) and "
                + "browse them as Markdown (memory_list); paging in id order is for programs";
        static final String AGENT_EDITS = "agents change memories through memory_rethink, the Markdown files "
                + "(memory_write, memory_patch) or a refinement session's update_memory";
        static final String PROTECT =
                "an agent protects inside a refinement session (protect_memory); outside one " + "only admins may";
        static final String CONTEXT = "assembled by the agent runtime before a turn, not called by the model "
                + "(core_memory and memory_recall are its tool-sized parts)";
        static final String OPERATORS = "operational counts for operators' dashboards, not an agent tool";
        static final String STREAM = "a long-lived stream (server-sent events, gRPC) for programs; audit_log "
                + "(after_seq) is the agent's one-shot read";
        static final String PUBLIC_KEYS =
                "served without a key at GET /v1/chain/keys, outside the authenticated " + "routes";
        static final String VERIFIERS = "for verifiers outside the service; chain_checkpoint names the signing key";
        static final String PAST_SESSIONS =
                "an admin's overview of past sessions; the agent works in the open one " + "(refinement_session)";
        static final String GRANTS = "grants are between an admin and the space's owner; the agent tool surface serves "
                + "no admin content reads";
        static final String APPLY_ROLLBACK = "applying a rollback is an admin's decision after reviewing the plan "
                + "(rollback_plan), not an agent tool";
        static final String WHO_AM_I = "an MCP session already acts as its key; who the key is, is a client's question";
        static final String MCP_ENDPOINT = "the MCP endpoint itself (/mcp), a transport of its own";
        static final String CHECKPOINTS = "checkpoints are saved and loaded by the agent runtime around each step "
                + "(a graph's checkpoint saver), not called by the model";
        static final String MCP_ITSELF = "the MCP endpoint itself: each tool checks its own operation";

        private Why() {}
    }

    private static final String SPACE_SEGMENT = "[^/]+";
    private static final Map<String, Operation> BY_GRPC = Arrays.stream(values())
            .filter(o -> o.grpc.carried())
            .collect(Collectors.toUnmodifiableMap(Operation::grpcMethod, Function.identity()));

    private final AccessRules.Scope scope;
    private final Carriage rest;
    private final Carriage grpc;
    private final Carriage mcp;
    private final String httpMethod;
    private final Pattern path;

    Operation(AccessRules.Scope scope, Carriage rest, Carriage grpc, Carriage mcp) {
        this.scope = scope;
        this.rest = rest;
        this.grpc = grpc;
        this.mcp = mcp;
        String route = rest.single();
        this.httpMethod = route == null ? null : route.substring(0, route.indexOf(' '));
        this.path = route == null
                ? null
                : Pattern.compile("^/v1/"
                        + route.substring(route.indexOf(' ') + 1)
                                .replace("S/", "spaces/" + SPACE_SEGMENT + "/")
                                .replace("S", "spaces/" + SPACE_SEGMENT)
                                .replace("PATH", ".+")
                                .replace("ID", "[^/:]+")
                        + "$");
    }

    private static Carriage rest(String route) {
        return Carriage.by(route);
    }

    private static Carriage rpc(String method) {
        return Carriage.by(method);
    }

    private static Carriage tools(String... names) {
        return Carriage.by(names);
    }

    private static Carriage exempt(String reason) {
        return Carriage.exempt(reason);
    }

    /**
     * Whether the operation changes something (publishes a request to the chain or changes a key): every operation
     * whose REST verb is not GET, save the reads sent by POST for their bodies (query, context, a refinement's search,
     * a rollback plan). Write quotas count these.
     */
    public boolean writes() {
        return switch (this) {
            case QUERY, CONTEXT, SEARCH_REFINEMENT, PLAN_ROLLBACK -> false;
            default -> rest.carried() && !rest.names().get(0).startsWith("GET ");
        };
    }

    public AccessRules.Scope scope() {
        return scope;
    }

    /** The gRPC method's simple name in {@code memorychain.v1.MemoryService}, or null for none. */
    public String grpcMethod() {
        return grpc.single();
    }

    /** How REST carries it: its route ({@code "POST S/memories"}), or why not. */
    public Carriage rest() {
        return rest;
    }

    /** How gRPC carries it: its method of {@code memorychain.v1.MemoryService}, or why not. */
    public Carriage grpc() {
        return grpc;
    }

    /** How MCP carries it: the tools that run it, or why none does. */
    public Carriage mcp() {
        return mcp;
    }

    public static Optional<Operation> ofGrpc(String simpleMethodName) {
        return Optional.ofNullable(BY_GRPC.get(simpleMethodName));
    }

    /**
     * The operation of a REST call ({@code HEAD} is its {@code GET}); {@code /mcp} is {@link #MCP}. Empty: a route the
     * catalogue does not know.
     */
    public static Optional<Operation> ofRest(String method, String path) {
        if (path.equals("/mcp") || path.startsWith("/mcp/")) {
            return Optional.of(MCP);
        }
        String verb = method.equalsIgnoreCase("HEAD") ? "GET" : method;
        for (Operation o : values()) {
            if (o.path != null
                    && o.httpMethod.equalsIgnoreCase(verb)
                    && o.path.matcher(path).matches()) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }

    /** The scope of a REST call: an unknown route is content (admins are refused it). */
    public static AccessRules.Scope scopeOfRest(String method, String path) {
        return ofRest(method, path).map(Operation::scope).orElse(CONTENT);
    }

    /** The scope of a gRPC call: an unknown method is content. */
    public static AccessRules.Scope scopeOfGrpc(String simpleMethodName) {
        return ofGrpc(simpleMethodName).map(Operation::scope).orElse(CONTENT);
    }
}
