"""The REST routes of the service's operation catalogue (memory-api's ``io.memorychain.api.auth.Operation``).

Each client method is named after its operation (``CREATE_MEMORY`` -> ``create_memory``) and calls the route below.
``write`` marks the operations that change the chain: they carry an ``Idempotency-Key`` (kept across retries).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    write: bool
    answer: str | None  # the models class of the answer; None: the JSON as it came (or text)


S = "/v1/spaces/{space}"

ROUTES: dict[str, Route] = {
    "CREATE_MEMORY": Route("POST", S + "/memories", True, "WriteResult"),
    "GET_MEMORY": Route("GET", S + "/memories/{id}", False, "Memory"),
    "LIST_MEMORIES": Route("GET", S + "/memories", False, "MemoryPage"),
    "UPDATE_MEMORY": Route("PATCH", S + "/memories/{id}", True, "WriteResult"),
    "DELETE_MEMORY": Route("DELETE", S + "/memories/{id}", True, "WriteResult"),
    "RESTORE_MEMORY": Route("POST", S + "/memories/{id}:restore", True, "WriteResult"),
    "PROTECT_MEMORY": Route("POST", S + "/memories/{id}:protect", True, "WriteResult"),
    "UNPROTECT_MEMORY": Route("POST", S + "/memories/{id}:unprotect", True, "WriteResult"),
    "ERASE_MEMORY": Route("POST", S + "/memories/{id}:erase", True, "WriteResult"),
    "PURGE_MEMORY": Route("POST", S + "/memories/{id}:purge", True, "WriteResult"),
    "ERASURE_PROOF": Route("GET", S + "/memories/{id}/erasure", False, "ErasureProof"),
    "PIN_MEMORY": Route("POST", S + "/memories/{id}:pin", True, "WriteResult"),
    "UNPIN_MEMORY": Route("POST", S + "/memories/{id}:unpin", True, "WriteResult"),
    "CONSOLIDATE": Route("POST", S + "/consolidations", True, "WriteResult"),
    "GET_HISTORY": Route("GET", S + "/memories/{id}/history", False, "History"),
    "PUT_BLOCK": Route("PUT", S + "/blocks/{label}", True, "WriteResult"),
    "GET_BLOCK": Route("GET", S + "/blocks/{label}", False, "Memory"),
    "GET_CORE": Route("GET", S + "/core", False, "Core"),
    "QUERY": Route("POST", S + "/query", False, "QueryJsonAnswer"),
    "CONTEXT": Route("POST", S + "/context", False, "QueryJsonContext"),
    "LINK": Route("POST", S + "/memories/{id}/links", True, "RelationsJson"),
    "UNLINK": Route("DELETE", S + "/memories/{id}/links/{to}", True, "RelationsJson"),
    "GET_RELATIONS": Route("GET", S + "/memories/{id}/relations", False, "RelationsJson"),
    "LIST_AUDIT": Route("GET", S + "/audit", False, "AuditPage"),
    "AUDIT_DIGEST": Route("GET", S + "/audit/digest", False, "AuditDigest"),
    "LIST_OPS": Route("GET", S + "/ops", False, "OpsPage"),
    "EXPORT_SPACE": Route("GET", S + "/export", False, None),
    "IMPORT_SPACE": Route("POST", S + "/import", True, "ImportResult"),
    "VERIFY_CHAIN": Route("GET", S + "/chain/verify", False, "ChainVerification"),
    "CHAIN_CHECKPOINT": Route("GET", S + "/chain/checkpoint", False, "ChainCheckpoint"),
    "EXPORT_CHAIN": Route("GET", S + "/chain/export", False, None),
    "LIST_FILES": Route("GET", S + "/files", False, "FileListJson"),
    "READ_FILE": Route("GET", S + "/files/{path}", False, None),
    "WRITE_FILE": Route("PUT", S + "/files/{path}", True, "MarkdownFileWrite"),
    "PATCH_FILE": Route("POST", S + "/files/{path}:patch", True, "MarkdownFileWrite"),
    "APPEND_FILE": Route("POST", S + "/files/{path}:append", True, "MarkdownFileWrite"),
    "LIST_REFLECTIONS": Route("GET", S + "/reflections", False, "ReflectionLog"),
    "GET_REFLECTION": Route("GET", S + "/reflections/{id}", False, "Reflection"),
    "REQUEST_REFLECTION": Route("POST", S + "/reflections", True, None),
    "DECIDE_REFLECTION": Route("POST", S + "/reflections/{id}:decide", True, "Reflection"),
    "POST_MESSAGE": Route("POST", S + "/messages", True, "MessageAnswer"),
    "CONFIRM_FORGET": Route("POST", S + "/messages:confirm-forget", True, "ForgetConfirmed"),
    "GET_PROFILE": Route("GET", S + "/profile", False, "Profile"),
    "GET_PROFILE_FIELD": Route("GET", S + "/profile/{field}", False, "ProfileField"),
    "SET_PROFILE_FIELD": Route("PUT", S + "/profile/{field}", True, "ProfileWrite"),
    "LIST_CONSENTS": Route("GET", S + "/consents", False, "ConsentList"),
    "DECIDE_CONSENT": Route("POST", S + "/consents/{id}:decide", True, "Consent"),
    "SAVE_CHECKPOINT": Route("POST", S + "/checkpoints", True, "AgentCheckpoint"),
    "GET_CHECKPOINT": Route("GET", S + "/checkpoints/{id}", False, "AgentCheckpoint"),
    "LIST_CHECKPOINTS": Route("GET", S + "/checkpoints", False, "AgentCheckpointPage"),
    "DELETE_CHECKPOINTS": Route("DELETE", S + "/checkpoints", True, "DeletedCheckpoints"),
    "LIST_ALERTS": Route("GET", S + "/alerts", False, "AlertList"),
    "ACKNOWLEDGE_ALERT": Route("POST", S + "/alerts/{id}:acknowledge", True, "CriticalAlert"),
    "START_REFINEMENT": Route("POST", S + "/refinements", True, "RefinementSession"),
    "LIST_REFINEMENTS": Route("GET", S + "/refinements", False, "RefinementSessions"),
    "GET_REFINEMENT": Route("GET", S + "/refinements/{session}", False, "RefinementSession"),
    "SEARCH_REFINEMENT": Route("POST", S + "/refinements/{session}/search", False, "RefinementSearchResult"),
    "REFINEMENT_CONSOLIDATE": Route("POST", S + "/refinements/{session}/consolidations", True, "WriteResult"),
    "REFINEMENT_UPDATE_MEMORY": Route("PATCH", S + "/refinements/{session}/memories/{id}", True, "WriteResult"),
    "REFINEMENT_DELETE_MEMORY": Route("DELETE", S + "/refinements/{session}/memories/{id}", True, "WriteResult"),
    "REFINEMENT_PROTECT_MEMORY": Route("POST", S + "/refinements/{session}/memories/{id}:protect", True, "WriteResult"),
    "COMPLETE_REFINEMENT": Route("POST", S + "/refinements/{session}:complete", True, "RefinementCompletion"),
    "PROPOSE": Route("POST", S + "/proposals", True, "ProposalWriteResult"),
    "LIST_PROPOSALS": Route("GET", S + "/proposals", False, "ProposalListJson"),
    "GET_PROPOSAL": Route("GET", S + "/proposals/{id}", False, "Proposal"),
    "COMMIT_PROPOSAL": Route("POST", S + "/proposals/{id}:commit", True, "ProposalWriteResult"),
    "REJECT_PROPOSAL": Route("POST", S + "/proposals/{id}:reject", True, "ProposalWriteResult"),
    "DEFER_PROPOSAL": Route("POST", S + "/proposals/{id}:defer", True, "ProposalWriteResult"),
    "REQUEST_GRANT": Route("POST", S + "/grants", True, "Grant"),
    "LIST_GRANTS": Route("GET", S + "/grants", False, "GrantList"),
    "GET_GRANT": Route("GET", S + "/grants/{id}", False, "Grant"),
    "CONSENT_GRANT": Route("POST", S + "/grants/{id}:consent", True, "Grant"),
    "REVOKE_GRANT": Route("POST", S + "/grants/{id}:revoke", True, "Grant"),
    "GRANT_READS": Route("GET", S + "/grants/{id}/reads", False, "GrantReads"),
    "PLAN_ROLLBACK": Route("POST", S + "/rollback/plan", False, "RollbackPlan"),
    "APPLY_ROLLBACK": Route("POST", S + "/rollback", True, None),
    "ISSUE_KEY": Route("POST", "/v1/keys", False, "ApiKey"),
    "LIST_KEYS": Route("GET", "/v1/keys", False, "ApiKeys"),
    "REVOKE_KEY": Route("DELETE", "/v1/keys/{id}", False, "ApiKey"),
    "WHO_AM_I": Route("GET", "/v1/me", False, "Caller"),
    # not in the catalogue's REST routes: the public key set is served without an API key
    "CHAIN_KEYS": Route("GET", "/v1/chain/keys", False, "ChainPublicKeys"),
}

# Operations of the catalogue this client has no method for, with the reason (the parity test prints them).
EXEMPTIONS: dict[str, str] = {
    "MCP": "the MCP endpoint itself, not an operation: each MCP tool maps to one of the methods here",
}
