package io.memorychain.domain;

/** Stable codes of rejected requests (the {@code code} of a rejected {@code MemoryOutcome}). */
public enum RejectionCode {
    /** The request is malformed: missing or out-of-range fields, nothing to change, wrong kind for the operation. */
    INVALID_ARGUMENT,
    /** The memory does not exist in this space. */
    NOT_FOUND,
    /** The actor may not do this (e.g. a sub-agent writing directly, a non-admin unprotecting). */
    FORBIDDEN,
    /** The memory is constitutional: it cannot be deleted or consolidated. */
    CONSTITUTIONAL,
    /**
     * The request needs an open refinement session and has none: it names a session that is not the space's open one,
     * protects a memory as a non-admin outside a session, or completes without a session.
     */
    NOT_IN_REFINEMENT,
    /**
     * The state does not allow it (e.g. updating a superseded memory, restoring an active one, starting a refinement
     * session while one is open).
     */
    INVALID_STATE,
    /** The block label is not one of the configured labels. */
    UNKNOWN_BLOCK_LABEL,
    /** Content over the configured size limit. */
    TOO_LARGE,
    /** expected_version does not match the current version. */
    VERSION_CONFLICT,
    /** The change would take core memory over its token budget. */
    BUDGET_EXCEEDED,
    /** The relation edge already exists (for related_to: in either direction). */
    ALREADY_LINKED,
    /** The agent may not use this category. */
    CATEGORY_NOT_ALLOWED,
    /** The proposal was already committed or rejected (a deferred one is still open). */
    ALREADY_RESOLVED,
    /**
     * The consent request expired (its consent window, 7 days of chain time by default, passed) and can no longer be
     * granted (docs/architecture.md §21).
     */
    EXPIRED,
    /** The sequencer could not process the request (a defect); the request was moved to the dead-letter topic. */
    INTERNAL
}
