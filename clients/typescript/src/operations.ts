/**
 * The REST routes of the service's operation catalogue (memory-api's io.memorychain.api.auth.Operation). Each client
 * method is named after its operation (CREATE_MEMORY -> createMemory). `write` marks the operations that change the
 * chain: they carry an Idempotency-Key, kept across retries.
 */
export interface Route {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: string;
  readonly write: boolean;
}

const S = "/v1/spaces/{space}";
const r = (method: Route["method"], path: string, write = false): Route => ({ method, path, write });

export const ROUTES = {
  CREATE_MEMORY: r("POST", `${S}/memories`, true),
  GET_MEMORY: r("GET", `${S}/memories/{id}`),
  LIST_MEMORIES: r("GET", `${S}/memories`),
  UPDATE_MEMORY: r("PATCH", `${S}/memories/{id}`, true),
  DELETE_MEMORY: r("DELETE", `${S}/memories/{id}`, true),
  RESTORE_MEMORY: r("POST", `${S}/memories/{id}:restore`, true),
  PROTECT_MEMORY: r("POST", `${S}/memories/{id}:protect`, true),
  UNPROTECT_MEMORY: r("POST", `${S}/memories/{id}:unprotect`, true),
  ERASE_MEMORY: r("POST", `${S}/memories/{id}:erase`, true),
  PURGE_MEMORY: r("POST", `${S}/memories/{id}:purge`, true),
  ERASURE_PROOF: r("GET", `${S}/memories/{id}/erasure`),
  PIN_MEMORY: r("POST", `${S}/memories/{id}:pin`, true),
  UNPIN_MEMORY: r("POST", `${S}/memories/{id}:unpin`, true),
  CONSOLIDATE: r("POST", `${S}/consolidations`, true),
  GET_HISTORY: r("GET", `${S}/memories/{id}/history`),
  PUT_BLOCK: r("PUT", `${S}/blocks/{label}`, true),
  GET_BLOCK: r("GET", `${S}/blocks/{label}`),
  GET_CORE: r("GET", `${S}/core`),
  QUERY: r("POST", `${S}/query`),
  CONTEXT: r("POST", `${S}/context`),
  LINK: r("POST", `${S}/memories/{id}/links`, true),
  UNLINK: r("DELETE", `${S}/memories/{id}/links/{to}`, true),
  GET_RELATIONS: r("GET", `${S}/memories/{id}/relations`),
  LIST_AUDIT: r("GET", `${S}/audit`),
  AUDIT_DIGEST: r("GET", `${S}/audit/digest`),
  LIST_OPS: r("GET", `${S}/ops`),
  EXPORT_SPACE: r("GET", `${S}/export`),
  IMPORT_SPACE: r("POST", `${S}/import`, true),
  VERIFY_CHAIN: r("GET", `${S}/chain/verify`),
  CHAIN_CHECKPOINT: r("GET", `${S}/chain/checkpoint`),
  EXPORT_CHAIN: r("GET", `${S}/chain/export`),
  LIST_FILES: r("GET", `${S}/files`),
  READ_FILE: r("GET", `${S}/files/{path}`),
  WRITE_FILE: r("PUT", `${S}/files/{path}`, true),
  PATCH_FILE: r("POST", `${S}/files/{path}:patch`, true),
  APPEND_FILE: r("POST", `${S}/files/{path}:append`, true),
  LIST_REFLECTIONS: r("GET", `${S}/reflections`),
  GET_REFLECTION: r("GET", `${S}/reflections/{id}`),
  REQUEST_REFLECTION: r("POST", `${S}/reflections`, true),
  DECIDE_REFLECTION: r("POST", `${S}/reflections/{id}:decide`, true),
  POST_MESSAGE: r("POST", `${S}/messages`, true),
  CONFIRM_FORGET: r("POST", `${S}/messages:confirm-forget`, true),
  GET_PROFILE: r("GET", `${S}/profile`),
  GET_PROFILE_FIELD: r("GET", `${S}/profile/{field}`),
  SET_PROFILE_FIELD: r("PUT", `${S}/profile/{field}`, true),
  LIST_CONSENTS: r("GET", `${S}/consents`),
  DECIDE_CONSENT: r("POST", `${S}/consents/{id}:decide`, true),
  SAVE_CHECKPOINT: r("POST", `${S}/checkpoints`, true),
  GET_CHECKPOINT: r("GET", `${S}/checkpoints/{id}`),
  LIST_CHECKPOINTS: r("GET", `${S}/checkpoints`),
  DELETE_CHECKPOINTS: r("DELETE", `${S}/checkpoints`, true),
  LIST_ALERTS: r("GET", `${S}/alerts`),
  ACKNOWLEDGE_ALERT: r("POST", `${S}/alerts/{id}:acknowledge`, true),
  START_REFINEMENT: r("POST", `${S}/refinements`, true),
  LIST_REFINEMENTS: r("GET", `${S}/refinements`),
  GET_REFINEMENT: r("GET", `${S}/refinements/{session}`),
  SEARCH_REFINEMENT: r("POST", `${S}/refinements/{session}/search`),
  REFINEMENT_CONSOLIDATE: r("POST", `${S}/refinements/{session}/consolidations`, true),
  REFINEMENT_UPDATE_MEMORY: r("PATCH", `${S}/refinements/{session}/memories/{id}`, true),
  REFINEMENT_DELETE_MEMORY: r("DELETE", `${S}/refinements/{session}/memories/{id}`, true),
  REFINEMENT_PROTECT_MEMORY: r("POST", `${S}/refinements/{session}/memories/{id}:protect`, true),
  COMPLETE_REFINEMENT: r("POST", `${S}/refinements/{session}:complete`, true),
  PROPOSE: r("POST", `${S}/proposals`, true),
  LIST_PROPOSALS: r("GET", `${S}/proposals`),
  GET_PROPOSAL: r("GET", `${S}/proposals/{id}`),
  COMMIT_PROPOSAL: r("POST", `${S}/proposals/{id}:commit`, true),
  REJECT_PROPOSAL: r("POST", `${S}/proposals/{id}:reject`, true),
  DEFER_PROPOSAL: r("POST", `${S}/proposals/{id}:defer`, true),
  REQUEST_GRANT: r("POST", `${S}/grants`, true),
  LIST_GRANTS: r("GET", `${S}/grants`),
  GET_GRANT: r("GET", `${S}/grants/{id}`),
  CONSENT_GRANT: r("POST", `${S}/grants/{id}:consent`, true),
  REVOKE_GRANT: r("POST", `${S}/grants/{id}:revoke`, true),
  GRANT_READS: r("GET", `${S}/grants/{id}/reads`),
  PLAN_ROLLBACK: r("POST", `${S}/rollback/plan`),
  APPLY_ROLLBACK: r("POST", `${S}/rollback`, true),
  ISSUE_KEY: r("POST", "/v1/keys"),
  LIST_KEYS: r("GET", "/v1/keys"),
  REVOKE_KEY: r("DELETE", "/v1/keys/{id}"),
  WHO_AM_I: r("GET", "/v1/me"),
  // not among the catalogue's REST routes: the public key set is served without an API key
  CHAIN_KEYS: r("GET", "/v1/chain/keys"),
} as const satisfies Record<string, Route>;

export type OperationName = keyof typeof ROUTES;

/** Operations of the catalogue this client has no method for, with the reason (the parity test prints them). */
export const EXEMPTIONS: Readonly<Record<string, string>> = {
  "MCP": "the MCP endpoint itself, not an operation: runTool() calls its tools/call for the tool definitions",
};
