package io.memorychain.client;

import static io.memorychain.client.PathSegments.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The operations of {@link MemoryChainClient} that audit and govern a space and review what agents proposed: audit and
 * ops logs, chain verification and keys, API keys, grants, consents, the profile, alerts, and the reviews of proposals,
 * reflections, refinement sessions and contradictions. Also the calls every operation goes through.
 */
abstract class GovernanceCalls {

    final Transport transport;

    GovernanceCalls(Transport transport) {
        this.transport = transport;
    }

    JsonNode get(String path, Map<String, ?> query) {
        return transport.call("GET", path, query, null, null, null, null).body();
    }

    JsonNode send(String method, String path, Object body, String contentType, Write write) {
        Write w = write == null ? Write.DEFAULT : write;
        return transport
                .call(method, path, null, body, contentType, w.idempotencyKey(), w.ifMatch())
                .body();
    }

    /** {@code GET /v1/spaces/{space}/audit} (LIST_AUDIT). */
    public JsonNode listAudit(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/audit", query);
    }

    /** {@code GET /v1/spaces/{space}/audit/digest} (AUDIT_DIGEST). */
    public JsonNode auditDigest(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/audit/digest", query);
    }

    /** {@code GET /v1/spaces/{space}/ops} (LIST_OPS). */
    public JsonNode listOps(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/ops", query);
    }

    /** {@code GET /v1/spaces/{space}/chain/verify} (VERIFY_CHAIN). */
    public JsonNode verifyChain(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/chain/verify", query);
    }

    /** {@code GET /v1/spaces/{space}/chain/checkpoint} (CHAIN_CHECKPOINT). */
    public JsonNode chainCheckpoint(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/chain/checkpoint", query);
    }

    /** {@code POST /v1/spaces/{space}/chain/keys:rotate} (ROTATE_CHAIN_KEY, admins). */
    public JsonNode rotateChainKey(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/chain/keys:rotate", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/chain/keys/ID:compromised} (MARK_CHAIN_KEY_COMPROMISED, admins). */
    public JsonNode markChainKeyCompromised(String space, String keyId, Map<String, ?> body, Write write) {
        return send(
                "POST", "/v1/spaces/" + seg(space) + "/chain/keys/" + seg(keyId) + ":compromised", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/chain/export} (EXPORT_CHAIN). */
    public JsonNode exportChain(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/chain/export", query);
    }

    /** {@code GET /v1/spaces/{space}/reflections} (LIST_REFLECTIONS). */
    public JsonNode listReflections(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/reflections", query);
    }

    /** {@code GET /v1/spaces/{space}/reflections/ID} (GET_REFLECTION). */
    public JsonNode getReflection(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/reflections/" + seg(id), query);
    }

    /** {@code POST /v1/spaces/{space}/reflections} (REQUEST_REFLECTION). */
    public JsonNode requestReflection(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/reflections", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/reflections/ID:decide} (DECIDE_REFLECTION). */
    public JsonNode decideReflection(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/reflections/" + seg(id) + ":decide", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/profile} (GET_PROFILE). */
    public JsonNode getProfile(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/profile", query);
    }

    /** {@code GET /v1/spaces/{space}/profile/ID} (GET_PROFILE_FIELD). */
    public JsonNode getProfileField(String space, String field, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/profile/" + seg(field), query);
    }

    /** {@code PUT /v1/spaces/{space}/profile/ID} (SET_PROFILE_FIELD). */
    public JsonNode setProfileField(String space, String field, Map<String, ?> body, Write write) {
        return send("PUT", "/v1/spaces/" + seg(space) + "/profile/" + seg(field), body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/consents} (LIST_CONSENTS). */
    public JsonNode listConsents(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/consents", query);
    }

    /** {@code POST /v1/spaces/{space}/consents/ID:decide} (DECIDE_CONSENT). */
    public JsonNode decideConsent(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/consents/" + seg(id) + ":decide", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/alerts} (LIST_ALERTS). */
    public JsonNode listAlerts(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/alerts", query);
    }

    /** {@code POST /v1/spaces/{space}/alerts/ID:acknowledge} (ACKNOWLEDGE_ALERT). */
    public JsonNode acknowledgeAlert(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/alerts/" + seg(id) + ":acknowledge", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/refinements} (START_REFINEMENT). */
    public JsonNode startRefinement(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/refinements", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/refinements} (LIST_REFINEMENTS). */
    public JsonNode listRefinements(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/refinements", query);
    }

    /** {@code GET /v1/spaces/{space}/refinements/ID} (GET_REFINEMENT). */
    public JsonNode getRefinement(String space, String session, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/refinements/" + seg(session), query);
    }

    /** {@code POST /v1/spaces/{space}/refinements/ID/search} (SEARCH_REFINEMENT). */
    public JsonNode searchRefinement(String space, String session, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + "/search", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/refinements/ID/consolidations} (REFINEMENT_CONSOLIDATE). */
    public JsonNode refinementConsolidate(String space, String session, Map<String, ?> body, Write write) {
        return send(
                "POST",
                "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + "/consolidations",
                body,
                null,
                write);
    }

    /** {@code PATCH /v1/spaces/{space}/refinements/ID/memories/ID} (REFINEMENT_UPDATE_MEMORY). */
    public JsonNode refinementUpdateMemory(
            String space, String session, String memoryId, Map<String, ?> body, Write write) {
        return send(
                "PATCH",
                "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + "/memories/" + seg(memoryId),
                body,
                null,
                write);
    }

    /** {@code DELETE /v1/spaces/{space}/refinements/ID/memories/ID} (REFINEMENT_DELETE_MEMORY). */
    public JsonNode refinementDeleteMemory(
            String space, String session, String memoryId, Map<String, ?> body, Write write) {
        return send(
                "DELETE",
                "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + "/memories/" + seg(memoryId),
                body,
                null,
                write);
    }

    /** {@code POST /v1/spaces/{space}/refinements/ID/memories/ID:protect} (REFINEMENT_PROTECT_MEMORY). */
    public JsonNode refinementProtectMemory(
            String space, String session, String memoryId, Map<String, ?> body, Write write) {
        return send(
                "POST",
                "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + "/memories/" + seg(memoryId) + ":protect",
                body,
                null,
                write);
    }

    /** {@code POST /v1/spaces/{space}/refinements/ID:complete} (COMPLETE_REFINEMENT). */
    public JsonNode completeRefinement(String space, String session, Map<String, ?> body, Write write) {
        return send(
                "POST", "/v1/spaces/" + seg(space) + "/refinements/" + seg(session) + ":complete", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/proposals} (PROPOSE). */
    public JsonNode propose(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/proposals", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/proposals} (LIST_PROPOSALS). */
    public JsonNode listProposals(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/proposals", query);
    }

    /** {@code GET /v1/spaces/{space}/proposals/ID} (GET_PROPOSAL). */
    public JsonNode getProposal(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/proposals/" + seg(id), query);
    }

    /** {@code POST /v1/spaces/{space}/proposals/ID:commit} (COMMIT_PROPOSAL). */
    public JsonNode commitProposal(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/proposals/" + seg(id) + ":commit", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/proposals/ID:reject} (REJECT_PROPOSAL). */
    public JsonNode rejectProposal(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/proposals/" + seg(id) + ":reject", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/proposals/ID:defer} (DEFER_PROPOSAL). */
    public JsonNode deferProposal(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/proposals/" + seg(id) + ":defer", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/contradictions} (LIST_CONTRADICTIONS). */
    public JsonNode listContradictions(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/contradictions", query);
    }

    /** {@code POST /v1/spaces/{space}/contradictions} (FLAG_CONTRADICTION). */
    public JsonNode flagContradiction(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/contradictions", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/contradictions/ID:resolve} (RESOLVE_CONTRADICTION). */
    public JsonNode resolveContradiction(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/contradictions/" + seg(id) + ":resolve", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/grants} (REQUEST_GRANT). */
    public JsonNode requestGrant(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/grants", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/grants} (LIST_GRANTS). */
    public JsonNode listGrants(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/grants", query);
    }

    /** {@code GET /v1/spaces/{space}/grants/ID} (GET_GRANT). */
    public JsonNode getGrant(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/grants/" + seg(id), query);
    }

    /** {@code POST /v1/spaces/{space}/grants/ID:consent} (CONSENT_GRANT). */
    public JsonNode consentGrant(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/grants/" + seg(id) + ":consent", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/grants/ID:revoke} (REVOKE_GRANT). */
    public JsonNode revokeGrant(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/grants/" + seg(id) + ":revoke", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/grants/ID/reads} (GRANT_READS). */
    public JsonNode grantReads(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/grants/" + seg(id) + "/reads", query);
    }

    /** {@code POST /v1/spaces/{space}/rollback/plan} (PLAN_ROLLBACK). */
    public JsonNode planRollback(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/rollback/plan", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/rollback} (APPLY_ROLLBACK). */
    public JsonNode applyRollback(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/rollback", body, null, write);
    }

    /** {@code POST /v1/keys} (ISSUE_KEY). */
    public JsonNode issueKey(Map<String, ?> body, Write write) {
        return send("POST", "/v1/keys", body, null, write);
    }

    /** {@code GET /v1/keys} (LIST_KEYS). */
    public JsonNode listKeys(Map<String, ?> query) {
        return get("/v1/keys", query);
    }

    /** {@code DELETE /v1/keys/{id}} (REVOKE_KEY). */
    public JsonNode revokeKey(String keyId, Map<String, ?> body, Write write) {
        return send("DELETE", "/v1/keys/" + seg(keyId), body, null, write);
    }

    /** {@code GET /v1/me} (WHO_AM_I). */
    public JsonNode whoAmI(Map<String, ?> query) {
        return get("/v1/me", query);
    }
}
