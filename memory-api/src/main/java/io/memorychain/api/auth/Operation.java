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
 * Every operation of the API and what it touches: the one catalogue that the REST filter (by route), the gRPC
 * interceptor (by method) and the MCP tools (by the operation each tool runs) all ask before the operation runs. A
 * route or method missing here is refused to admins as content (fail closed); a test checks that every gRPC method and
 * every MCP tool is listed.
 *
 * <p>REST routes are a method and a path below {@code /v1/spaces/{space}} ({@code S}), or below {@code /v1}.
 */
public enum Operation {

    CREATE_MEMORY(CONTENT, "CreateMemory", "POST", "S/memories"),
    GET_MEMORY(GRANTED, "GetMemory", "GET", "S/memories/ID"),
    LIST_MEMORIES(GRANTED, "ListMemories", "GET", "S/memories"),
    UPDATE_MEMORY(CONTENT, "UpdateMemory", "PATCH", "S/memories/ID"),
    DELETE_MEMORY(CONTENT, "DeleteMemory", "DELETE", "S/memories/ID"),
    RESTORE_MEMORY(CONTENT, "RestoreMemory", "POST", "S/memories/ID:restore"),
    PROTECT_MEMORY(GOVERNANCE, "ProtectMemory", "POST", "S/memories/ID:protect"),
    UNPROTECT_MEMORY(GOVERNANCE, "UnprotectMemory", "POST", "S/memories/ID:unprotect"),
    /** Erasure (docs/architecture.md §12): admins and users, the sequencer's rule (FORBIDDEN for the others). */
    ERASE_MEMORY(GOVERNANCE, "EraseMemory", "POST", "S/memories/ID:erase"),
    /** An admin's explicit purge of a soft-deleted memory (the sequencer: FORBIDDEN for agents and users). */
    PURGE_MEMORY(GOVERNANCE, "PurgeMemory", "POST", "S/memories/ID:purge"),
    /** The proof of an erasure: chain coordinates and key record, no content. */
    ERASURE_PROOF(GOVERNANCE, null, "GET", "S/memories/ID/erasure"),
    PIN_MEMORY(CONTENT, "PinMemory", "POST", "S/memories/ID:pin"),
    UNPIN_MEMORY(CONTENT, "UnpinMemory", "POST", "S/memories/ID:unpin"),
    CONSOLIDATE(CONTENT, "Consolidate", "POST", "S/consolidations"),
    GET_HISTORY(CONTENT, "GetHistory", "GET", "S/memories/ID/history"),
    PUT_BLOCK(CONTENT, "PutBlock", "PUT", "S/blocks/ID"),
    GET_BLOCK(CONTENT, "GetBlock", "GET", "S/blocks/ID"),
    GET_CORE(CONTENT, "GetCore", "GET", "S/core"),
    QUERY(GRANTED, "Query", "POST", "S/query"),
    CONTEXT(CONTENT, "Context", "POST", "S/context"),
    LINK(CONTENT, "Link", "POST", "S/memories/ID/links"),
    UNLINK(CONTENT, "Unlink", "DELETE", "S/memories/ID/links/ID"),
    GET_RELATIONS(CONTENT, "GetRelations", "GET", "S/memories/ID/relations"),
    LIST_AUDIT(CONTENT, "ListAudit", "GET", "S/audit"),
    AUDIT_DIGEST(CONTENT, null, "GET", "S/audit/digest"),
    /** Operational event counts (docs/architecture.md §6 view-ops): metadata, no content, so admins may read them. */
    LIST_OPS(GOVERNANCE, null, "GET", "S/ops"),
    EXPORT_SPACE(GRANTED, null, "GET", "S/export"),
    IMPORT_SPACE(CONTENT, null, "POST", "S/import"),
    WATCH_CHANGES(CONTENT, "WatchChanges", null, null),
    VERIFY_CHAIN(GOVERNANCE, "VerifyChain", "GET", "S/chain/verify"),
    CHAIN_CHECKPOINT(GOVERNANCE, "GetChainCheckpoint", "GET", "S/chain/checkpoint"),
    /** The events themselves, content included: refused to admins like every content read. */
    EXPORT_CHAIN(CONTENT, null, "GET", "S/chain/export"),
    /** The chain's public keys: over REST served without a key ({@code GET /v1/chain/keys}), over gRPC to any key. */
    CHAIN_KEYS(GOVERNANCE, "GetChainKeys", null, null),
    LIST_FILES(CONTENT, "ListFiles", "GET", "S/files"),
    READ_FILE(CONTENT, "ReadFile", "GET", "S/files/PATH"),
    WRITE_FILE(CONTENT, "WriteFile", "PUT", "S/files/PATH"),
    PATCH_FILE(CONTENT, "PatchFile", "POST", "S/files/PATH:patch"),
    APPEND_FILE(CONTENT, "AppendFile", "POST", "S/files/PATH:append"),
    LIST_REFLECTIONS(CONTENT, "ListReflections", "GET", "S/reflections"),
    GET_REFLECTION(CONTENT, "GetReflection", "GET", "S/reflections/ID"),
    REQUEST_REFLECTION(GOVERNANCE, "RequestReflection", "POST", "S/reflections"),
    DECIDE_REFLECTION(CONTENT, "DecideReflection", "POST", "S/reflections/ID:decide"),
    /** A user message with remember / forget / reflect / recall triggers (docs/architecture.md §20); not on gRPC yet. */
    POST_MESSAGE(CONTENT, null, "POST", "S/messages"),
    CONFIRM_FORGET(CONTENT, null, "POST", "S/messages:confirm-forget"),
    GET_PROFILE(CONTENT, null, "GET", "S/profile"),
    GET_PROFILE_FIELD(CONTENT, null, "GET", "S/profile/ID"),
    SET_PROFILE_FIELD(CONTENT, null, "PUT", "S/profile/ID"),
    LIST_CONSENTS(CONTENT, null, "GET", "S/consents"),
    /** Only the user decides (the sequencer: FORBIDDEN for any other actor type). */
    DECIDE_CONSENT(CONTENT, null, "POST", "S/consents/ID:decide"),
    /** Alerts name a block, its version and who changed it, never content: governance, admins included. */
    LIST_ALERTS(GOVERNANCE, null, "GET", "S/alerts"),
    /** Users and admins (the sequencer: FORBIDDEN for any other actor type). */
    ACKNOWLEDGE_ALERT(GOVERNANCE, null, "POST", "S/alerts/ID:acknowledge"),
    START_REFINEMENT(GOVERNANCE, "StartRefinement", "POST", "S/refinements"),
    LIST_REFINEMENTS(GOVERNANCE, "ListRefinements", "GET", "S/refinements"),
    GET_REFINEMENT(GOVERNANCE, "GetRefinement", "GET", "S/refinements/ID"),
    SEARCH_REFINEMENT(GOVERNANCE, "SearchRefinement", "POST", "S/refinements/ID/search"),
    REFINEMENT_CONSOLIDATE(GOVERNANCE, "RefinementConsolidate", "POST", "S/refinements/ID/consolidations"),
    REFINEMENT_UPDATE_MEMORY(GOVERNANCE, "RefinementUpdateMemory", "PATCH", "S/refinements/ID/memories/ID"),
    REFINEMENT_DELETE_MEMORY(GOVERNANCE, "RefinementDeleteMemory", "DELETE", "S/refinements/ID/memories/ID"),
    REFINEMENT_PROTECT_MEMORY(GOVERNANCE, "RefinementProtectMemory", "POST", "S/refinements/ID/memories/ID:protect"),
    COMPLETE_REFINEMENT(GOVERNANCE, "CompleteRefinement", "POST", "S/refinements/ID:complete"),
    PROPOSE(GOVERNANCE, "Propose", "POST", "S/proposals"),
    LIST_PROPOSALS(GOVERNANCE, "ListProposals", "GET", "S/proposals"),
    GET_PROPOSAL(GOVERNANCE, "GetProposal", "GET", "S/proposals/ID"),
    COMMIT_PROPOSAL(GOVERNANCE, "CommitProposal", "POST", "S/proposals/ID:commit"),
    REJECT_PROPOSAL(GOVERNANCE, "RejectProposal", "POST", "S/proposals/ID:reject"),
    DEFER_PROPOSAL(GOVERNANCE, "DeferProposal", "POST", "S/proposals/ID:defer"),
    /** Mechanic's Exception grants (docs/architecture.md §13): who may do what is the sequencer's rule. */
    REQUEST_GRANT(GOVERNANCE, null, "POST", "S/grants"),
    LIST_GRANTS(GOVERNANCE, null, "GET", "S/grants"),
    GET_GRANT(GOVERNANCE, null, "GET", "S/grants/ID"),
    CONSENT_GRANT(GOVERNANCE, null, "POST", "S/grants/ID:consent"),
    REVOKE_GRANT(GOVERNANCE, null, "POST", "S/grants/ID:revoke"),
    GRANT_READS(GOVERNANCE, null, "GET", "S/grants/ID/reads"),
    PLAN_ROLLBACK(ADMIN, "PlanRollback", "POST", "S/rollback/plan"),
    APPLY_ROLLBACK(ADMIN, "ApplyRollback", "POST", "S/rollback"),
    ISSUE_KEY(KEYS, "IssueKey", "POST", "keys"),
    LIST_KEYS(KEYS, "ListKeys", "GET", "keys"),
    REVOKE_KEY(KEYS, "RevokeKey", "DELETE", "keys/ID"),
    WHO_AM_I(GOVERNANCE, "WhoAmI", "GET", "me"),
    /** The MCP endpoint itself: each tool then checks its own operation. */
    MCP(GOVERNANCE, null, null, null);

    private static final String SPACE_SEGMENT = "[^/]+";
    private static final Map<String, Operation> BY_GRPC = Arrays.stream(values()).filter(o -> o.grpcMethod != null)
            .collect(Collectors.toUnmodifiableMap(o -> o.grpcMethod, Function.identity()));

    private final AccessRules.Scope scope;
    private final String grpcMethod;
    private final String httpMethod;
    private final Pattern path;

    Operation(AccessRules.Scope scope, String grpcMethod, String httpMethod, String route) {
        this.scope = scope;
        this.grpcMethod = grpcMethod;
        this.httpMethod = httpMethod;
        this.path = route == null ? null : Pattern.compile("^/v1/" + route
                .replace("S/", "spaces/" + SPACE_SEGMENT + "/").replace("S", "spaces/" + SPACE_SEGMENT)
                .replace("PATH", ".+").replace("ID", "[^/:]+") + "$");
    }

    public AccessRules.Scope scope() {
        return scope;
    }

    /** The gRPC method's simple name in {@code memorychain.v1.MemoryService}, or null for none. */
    public String grpcMethod() {
        return grpcMethod;
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
            if (o.path != null && o.httpMethod.equalsIgnoreCase(verb) && o.path.matcher(path).matches()) {
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
