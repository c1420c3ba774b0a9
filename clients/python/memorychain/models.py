"""Answer types of the Memory Chain REST API, generated from its OpenAPI document by tools/gen_models.py.

Do not edit: regenerate after the API changes. Every field is optional (None when the answer leaves it out),
unknown fields of a newer service are kept in ``extra``.
"""
from __future__ import annotations

import dataclasses as _dc
from typing import Any, ClassVar

from ._model import Model

__all__ = ["AcknowledgeAlert", "Actor", "AgentCheckpoint", "AgentCheckpointPage", "AlertList", "ApiKey", "ApiKeys", "AuditDigest", "AuditEntry", "AuditPage", "Caller", "ChainCheckpoint", "ChainKeyChange", "ChainKeyCompromise", "ChainPublicKey", "ChainPublicKeys", "ChainVerification", "CompleteRefinement", "ConfirmForget", "Consent", "ConsentList", "Consolidate", "Context", "ContextQuestion", "ContextRefinement", "Contradiction", "ContradictionList", "Core", "CreateMemory", "CriticalAlert", "DecideConsent", "DecideReflection", "DeleteMemory", "DeletedCheckpoints", "EraseOrPurge", "ErasureProof", "ErasureProofChain", "ErasureProofEvent", "ErasureProofKeyRecord", "ErasureProofSubjectKey", "Error", "ExpectedVersion", "ExportedRelation", "FileListJson", "FlagContradiction", "ForgetConfirmed", "Grant", "GrantList", "GrantRead", "GrantReads", "History", "HistoryEntry", "ImportResult", "LedgerEntry", "Link", "MarkChainKeyCompromised", "MarkdownFileInfo", "Memory", "MemoryContradictions", "MemoryPage", "Message", "MessageAnswer", "MessageJsonConfirmation", "MessageJsonEntity", "MessageJsonFacts", "MessageJsonNotForgotten", "MessageJsonPassRate", "MessageJsonReflection", "MessageJsonRelation", "MessageJsonRouting", "MessageJsonSkippedFact", "MessageJsonValidation", "NewKey", "OpsBucket", "OpsPage", "PendingProfileValue", "Profile", "ProfileField", "ProfileSignal", "ProfileWrite", "Proposal", "ProposalFlag", "ProposalListJson", "ProposalWriteResult", "ProposeMemory", "Query", "QueryJsonAnswer", "QueryJsonContext", "QueryJsonItem", "QueryJsonRelated", "RefinementChange", "RefinementCompletion", "RefinementCounts", "RefinementEdit", "RefinementSearch", "RefinementSearchResult", "RefinementSession", "RefinementSessions", "Reflection", "ReflectionChange", "ReflectionLog", "ReflectionRequested", "RelationJson", "RelationsJson", "RequestGrant", "RequestReflection", "ResolveContradiction", "ReviewProposal", "RevokeGrant", "Rollback", "RollbackEdgeDiff", "RollbackMemoryDiff", "RollbackPlan", "RotateChainKey", "SaveCheckpoint", "SetProfileField", "SpaceExport", "StartRefinement", "SuspectEvents", "UpdateBlock", "UpdateMemory", "WriteResult"]


@_dc.dataclass
class AcknowledgeAlert(Model):
    """The body of `POST /alerts/{id}:acknowledge`."""

    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Actor(Model):
    """Who caused a change."""

    type: str | None = None
    id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class AgentCheckpoint(Model):
    """An agent checkpoint as the API answers it."""

    space: str | None = None
    user_id: str | None = None
    thread_id: str | None = None
    checkpoint_id: str | None = None
    parent_id: str | None = None
    state: dict | None = None
    metadata: dict | None = None
    created_at: str | None = None
    updated_at: str | None = None
    saved_by: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class AgentCheckpointPage(Model):
    """A page of a thread's checkpoints, newest first."""

    items: list[AgentCheckpoint] | None = None
    next_cursor: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('AgentCheckpoint', True)}


@_dc.dataclass
class AlertList(Model):
    """The alerts of a space."""

    items: list[CriticalAlert] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('CriticalAlert', True)}


@_dc.dataclass
class ApiKey(Model):
    """An API key as listed (never its secret) or, once, as issued (with it)."""

    key_id: str | None = None
    key: str | None = None
    id: str | None = None
    role: str | None = None
    agent_id: str | None = None
    spaces: list[str] | None = None
    created_at: str | None = None
    created_by: str | None = None
    revoked: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ApiKeys(Model):
    """GET /v1/keys."""

    items: list[ApiKey] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('ApiKey', True)}


@_dc.dataclass
class AuditDigest(Model):
    """A month of a space's audit log summarised (docs/architecture.md §13): counts by event type and by actor, the block changes, the notable events, and the same as Markdown."""

    space: str | None = None
    month: str | None = None
    events: int | None = None
    by_type: dict | None = None
    by_actor: dict | None = None
    block_changes: list[AuditEntry] | None = None
    notable: list[AuditEntry] | None = None
    markdown: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'block_changes': ('AuditEntry', True), 'notable': ('AuditEntry', True)}


@_dc.dataclass
class AuditEntry(Model):
    """One line of a space's audit log (one chain event)."""

    seq: int | None = None
    event_type: str | None = None
    request_id: str | None = None
    actor: Actor | None = None
    occurred_at: str | None = None
    memory_ids: list[str] | None = None
    description: str | None = None
    hash: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'actor': ('Actor', False)}


@_dc.dataclass
class AuditPage(Model):
    """One page of the audit log; pass `next_after_seq` as `after_seq` for more (null when this page was not full)."""

    items: list[AuditEntry] | None = None
    next_after_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('AuditEntry', True)}


@_dc.dataclass
class Caller(Model):
    """The caller as GET /v1/me shows it."""

    id: str | None = None
    role: str | None = None
    agent_id: str | None = None
    spaces: list[str] | None = None
    actor: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ChainCheckpoint(Model):
    """A signed checkpoint (docs/chain-format.md §8): Ed25519 by `key_id` over the UTF-8 bytes of `"memorychain-checkpoint-v1\\n" + space + "\\n" + seq + "\\n" + hash`; `signed_at` is not signed."""

    space: str | None = None
    seq: int | None = None
    hash: str | None = None
    key_id: str | None = None
    signature: str | None = None
    signed_at: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ChainKeyChange(Model):
    """The answer of a key rotation or a compromise mark (docs/architecture.md §4): the event the sequencer appended to the space's chain, at which seq, and the key it names (the new signing key, or the key marked compromised)."""

    space: str | None = None
    seq: int | None = None
    event: str | None = None
    key_id: str | None = None
    trusted_up_to: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ChainKeyCompromise(Model):
    """A compromise mark: on the chain of `space`, at `marked_at_seq`, the key's events after `trusted_up_to` are suspect."""

    space: str | None = None
    trusted_up_to: int | None = None
    marked_at_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ChainPublicKey(Model):
    """One key: the raw 32-byte Ed25519 public key in hex and base64, its id, when created, whether it signs new events of spaces that never rotated (`active`), its status by the chain's key events (docs/architecture.md §4): `active` (the default key, or the key a space rotated to), `retired` (no space signs with it any more) or `compromised`, the spaces that rotated to it, and the compromise marks that name it."""

    key_id: str | None = None
    algorithm: str | None = None
    public_key_hex: str | None = None
    public_key_base64: str | None = None
    created_at: str | None = None
    active: bool | None = None
    status: str | None = None
    spaces: list[str] | None = None
    compromised: list[ChainKeyCompromise] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'compromised': ('ChainKeyCompromise', True)}


@_dc.dataclass
class ChainPublicKeys(Model):
    """The chain public keys, as in `data/keys/public-keys.json` (docs/chain-format.md §5)."""

    keys: list[ChainPublicKey] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'keys': ('ChainPublicKey', True)}


@_dc.dataclass
class ChainVerification(Model):
    """`{"ok":true,"events":N,"suspects":[]}` (with `"resumed_after_seq":S` when it continued an earlier verification) or `{"ok":false,"events":N,"first_bad_seq":S,"problem":P,"message":M}`."""

    ok: bool | None = None
    events: int | None = None
    first_bad_seq: int | None = None
    problem: str | None = None
    message: str | None = None
    resumed_after_seq: int | None = None
    suspects: list[SuspectEvents] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'suspects': ('SuspectEvents', True)}


@_dc.dataclass
class CompleteRefinement(Model):
    """POST /v1/spaces/{space}/refinements/{session}:complete: complete_refinement."""

    summary: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ConfirmForget(Model):
    """POST /v1/spaces/{space}/messages:confirm-forget."""

    token: str | None = None
    memory_ids: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Consent(Model):
    """A consent request (docs/architecture.md §21): a sensitive profile change waiting for, or decided by, the user."""

    requested_by: Actor | None = None
    decided_by: Actor | None = None
    id: str | None = None
    field: str | None = None
    value: str | None = None
    previous: str | None = None
    source: str | None = None
    confidence: str | None = None
    status: str | None = None
    requested_seq: int | None = None
    requested_at: str | None = None
    expires_at: str | None = None
    reason: str | None = None
    decided_seq: int | None = None
    decided_at: str | None = None
    decision_reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'requested_by': ('Actor', False), 'decided_by': ('Actor', False)}


@_dc.dataclass
class ConsentList(Model):
    """The consent requests of a space."""

    items: list[Consent] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Consent', True)}


@_dc.dataclass
class Consolidate(Model):
    """Supersede the given active memories by one new memory, atomically. The new memory keeps the earliest created_at."""

    ids: list[str] | None = None
    content: str | None = None
    summary: str | None = None
    reason: str | None = None
    category: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Context(Model):
    """POST /v1/spaces/{space}/context: what an agent runtime injects at the start of a turn."""

    message: str | None = None
    thread_id: str | None = None
    since_rev: int | None = None
    max_tokens: int | None = None
    agent: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ContextQuestion(Model):
    """A contradiction waiting for the user's answer."""

    id: str | None = None
    first_id: str | None = None
    second_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ContextRefinement(Model):
    """The space's open refinement session as `/context` tells it (docs/architecture.md §9)."""

    session_id: str | None = None
    trigger: str | None = None
    started_at: str | None = None
    budget: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Contradiction(Model):
    """A flagged contradiction between two memories or proposals (docs/architecture.md §10, seed 001 §13.6). Names the two sides, never their content."""

    flagged_by: Actor | None = None
    resolved_by: Actor | None = None
    id: str | None = None
    first_id: str | None = None
    second_id: str | None = None
    similarity: float | None = None
    flagged_seq: int | None = None
    flagged_at: str | None = None
    open: bool | None = None
    resolution: str | None = None
    winner_id: str | None = None
    resolved_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'flagged_by': ('Actor', False), 'resolved_by': ('Actor', False)}


@_dc.dataclass
class ContradictionList(Model):
    """The contradictions of a space, oldest first."""

    items: list[Contradiction] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Contradiction', True)}


@_dc.dataclass
class Core(Model):
    """What an agent runtime injects as core memory."""

    text: str | None = None
    tokens: int | None = None
    memories: list[Memory] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'memories': ('Memory', True)}


@_dc.dataclass
class CreateMemory(Model):
    """A new memory. Only content is required."""

    content: str | None = None
    kind: str | None = None
    tier: str | None = None
    category: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    source: str | None = None
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    actor_id: str | None = None
    thread_id: str | None = None
    role: str | None = None
    created_at: str | None = None
    pinned: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class CriticalAlert(Model):
    """A critical-change alert (docs/architecture.md §21, seed 001 §12.5). Names the change, never the content."""

    change_actor: Actor | None = None
    acknowledged_by: Actor | None = None
    id: str | None = None
    label: str | None = None
    block_id: str | None = None
    version: int | None = None
    change_seq: int | None = None
    alerted_seq: int | None = None
    alerted_at: str | None = None
    acknowledged: bool | None = None
    acknowledged_seq: int | None = None
    acknowledged_at: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'change_actor': ('Actor', False), 'acknowledged_by': ('Actor', False)}


@_dc.dataclass
class DecideConsent(Model):
    """The body of `POST /consents/{id}:decide`."""

    grant: bool | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class DecideReflection(Model):
    """The body of `POST /reflections/{id}:decide` and the arguments of the `reflection_decide` tool."""

    decision: str | None = None
    reason: str | None = None
    change_ids: list[str] | None = None
    edited_changes: list[ReflectionChange] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'edited_changes': ('ReflectionChange', True)}


@_dc.dataclass
class DeleteMemory(Model):
    """Optional body of DELETE (soft delete)."""

    reason: str | None = None
    expected_version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class DeletedCheckpoints(Model):
    """What deleting a thread's checkpoints did."""

    space: str | None = None
    user_id: str | None = None
    thread_id: str | None = None
    deleted: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class EraseOrPurge(Model):
    """Body of `erase` and `purge`: why (kept on the chain; required) and an optional expected version."""

    reason: str | None = None
    expected_version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ErasureProof(Model):
    """The proof that a memory was erased (docs/architecture.md §12): the signed `MemoryErased` event as it is on the chain, the destroyed data key's record on the key topic (no key material), and the verification of the whole chain up to its head at the time of the answer. Anyone holding the public keys can check the event's hash and signature against an exported chain (`verifier/verify.mjs`)."""

    key_record: ErasureProofKeyRecord | None = None
    space: str | None = None
    memory_id: str | None = None
    event: ErasureProofEvent | None = None
    chain: ErasureProofChain | None = None
    subject_keys: list[ErasureProofSubjectKey] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'key_record': ('ErasureProofKeyRecord', False), 'event': ('ErasureProofEvent', False), 'chain': ('ErasureProofChain', False), 'subject_keys': ('ErasureProofSubjectKey', True)}


@_dc.dataclass
class ErasureProofChain(Model):
    """The chain verified from seq 1 to its head"""

    verification: ChainVerification | None = None
    head_seq: int | None = None
    head_hash: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'verification': ('ChainVerification', False)}


@_dc.dataclass
class ErasureProofEvent(Model):
    """The MemoryErased event on the chain"""

    seq: int | None = None
    hash: str | None = None
    signature: str | None = None
    key_id: str | None = None
    occurred_at: str | None = None
    actor: str | None = None
    request_id: str | None = None
    reason: str | None = None
    data_key_id: str | None = None
    key_created_seq: int | None = None
    was_purged: bool | None = None
    destroyed_subjects: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ErasureProofKeyRecord(Model):
    """The data key's record as this instance reads it from the key topic."""

    topic: str | None = None
    found: bool | None = None
    destroyed: bool | None = None
    data_key_id: str | None = None
    created_seq: int | None = None
    destroyed_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ErasureProofSubjectKey(Model):
    """A subject's key record after the erasure's cascade (docs/architecture.md §12): a proposal (`p...`), a reflection (`r...`) or a refinement session (`session/`) whose texts carried the memory's content."""

    subject: str | None = None
    found: bool | None = None
    destroyed: bool | None = None
    data_key_id: str | None = None
    destroyed_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Error(Model):
    """Every non-2xx answer has this body."""

    code: str | None = None
    message: str | None = None
    request_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ExpectedVersion(Model):
    """Optional body of restore / protect / unprotect / pin / unpin."""

    expected_version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ExportedRelation(Model):
    """One relation edge between two exported memories (by their exported ids)."""

    from_: str | None = None
    to: str | None = None
    type: str | None = None
    strength: float | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {'from': 'from_'}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class FileListJson(Model):
    """GET /files."""

    files: list[MarkdownFileInfo] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'files': ('MarkdownFileInfo', True)}


@_dc.dataclass
class FlagContradiction(Model):
    """The body of `POST /contradictions`: two active memories or open proposals that contradict each other."""

    first_id: str | None = None
    second_id: str | None = None
    similarity: float | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ForgetConfirmed(Model):
    """What a confirmed forget did."""

    forgotten: list[str] | None = None
    not_forgotten: list[MessageJsonNotForgotten] | None = None
    hard_delete: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'not_forgotten': ('MessageJsonNotForgotten', True)}


@_dc.dataclass
class Grant(Model):
    """A Mechanic's Exception grant as the API shows it (docs/architecture.md §13). `status` is computed with the reader's clock: an active grant past its `expires_at` shows as `expired` (no event marks the expiry)."""

    requested_by: Actor | None = None
    consented_by: Actor | None = None
    revoked_by: Actor | None = None
    id: str | None = None
    space: str | None = None
    status: str | None = None
    grantee: str | None = None
    purpose: str | None = None
    duration_seconds: int | None = None
    memory_ids: list[str] | None = None
    requested_seq: int | None = None
    requested_at: str | None = None
    consented_at: str | None = None
    expires_at: str | None = None
    revoked_at: str | None = None
    revoke_reason: str | None = None
    reads: int | None = None
    last_read_at: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'requested_by': ('Actor', False), 'consented_by': ('Actor', False), 'revoked_by': ('Actor', False)}


@_dc.dataclass
class GrantList(Model):
    """The grants of a space."""

    items: list[Grant] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Grant', True)}


@_dc.dataclass
class GrantRead(Model):
    """One content read under a grant: a GrantedContentRead event of the chain (docs/architecture.md §13)."""

    grant_id: str | None = None
    seq: int | None = None
    request_id: str | None = None
    actor: Actor | None = None
    occurred_at: str | None = None
    operation: str | None = None
    memory_ids: list[str] | None = None
    count: int | None = None
    detail: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'actor': ('Actor', False)}


@_dc.dataclass
class GrantReads(Model):
    """The reads of one grant, oldest first."""

    items: list[GrantRead] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('GrantRead', True)}


@_dc.dataclass
class History(Model):
    """The history of one memory, oldest first."""

    id: str | None = None
    items: list[HistoryEntry] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('HistoryEntry', True)}


@_dc.dataclass
class HistoryEntry(Model):
    """One event that touched a memory, with the memory before and after it."""

    seq: int | None = None
    event_type: str | None = None
    request_id: str | None = None
    actor: Actor | None = None
    occurred_at: str | None = None
    before: Memory | None = None
    after: Memory | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'actor': ('Actor', False), 'before': ('Memory', False), 'after': ('Memory', False)}


@_dc.dataclass
class ImportResult(Model):
    """What an import wrote."""

    memories: int | None = None
    blocks: int | None = None
    relations: int | None = None
    ids: dict | None = None
    head_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class LedgerEntry(Model):
    """One memory of a refinement ledger (docs/architecture.md §9): id, content, created_at, tags and flags, plus what edits need."""

    id: str | None = None
    content: str | None = None
    created_at: str | None = None
    tags: list[str] | None = None
    flags: list[str] | None = None
    kind: str | None = None
    category: str | None = None
    importance: int | None = None
    version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Link(Model):
    """POST /v1/spaces/{space}/memories/{id}/links: a relation edge from the memory to another."""

    to: str | None = None
    type: str | None = None
    strength: float | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MarkChainKeyCompromised(Model):
    """Body of `compromised`: the last seq the key is trusted for on this chain, and why."""

    from_seq: int | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MarkdownFileInfo(Model):
    """A file of the Markdown view in listings (docs/architecture.md §11 memory_list)."""

    path: str | None = None
    summary: str | None = None
    size: int | None = None
    entries: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Memory(Model):
    """A memory as the REST API shows it: the Avro snapshot's fields, snake_case, enums in lower case, ISO-8601 times."""

    id: str | None = None
    space: str | None = None
    kind: str | None = None
    tier: str | None = None
    block_label: str | None = None
    category: str | None = None
    content: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    source: str | None = None
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    actor_id: str | None = None
    thread_id: str | None = None
    role: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    version: int | None = None
    state: str | None = None
    superseded_by: str | None = None
    supersedes: list[str] | None = None
    pinned: bool | None = None
    constitutional: bool | None = None
    content_hash: str | None = None
    decay_status: str | None = None
    purge_at: str | None = None
    contradictions: MemoryContradictions | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'contradictions': ('MemoryContradictions', False)}


@_dc.dataclass
class MemoryContradictions(Model):
    """Reading one memory as it is now (not a point-in-time read): the open contradictions it is a side of (docs/architecture.md §10); absent when there are none, and elsewhere"""

    open: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MemoryPage(Model):
    """One page of a listing; pass `next` as `after` for the following page (null on the last one)."""

    items: list[Memory] | None = None
    next: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Memory', True)}


@_dc.dataclass
class Message(Model):
    """A user message; remember / forget / reflect / recall phrases are acted on"""

    message: str | None = None
    user_id: str | None = None
    thread_id: str | None = None
    run_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageAnswer(Model):
    """What a message did."""

    trigger: str | None = None
    text: str | None = None
    routing: MessageJsonRouting | None = None
    stored: list[Memory] | None = None
    matches: list[QueryJsonItem] | None = None
    confirmation: MessageJsonConfirmation | None = None
    skipped: str | None = None
    hard_delete: str | None = None
    validation: MessageJsonValidation | None = None
    facts: MessageJsonFacts | None = None
    reflection: MessageJsonReflection | None = None
    request_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'routing': ('MessageJsonRouting', False), 'stored': ('Memory', True), 'matches': ('QueryJsonItem', True), 'confirmation': ('MessageJsonConfirmation', False), 'validation': ('MessageJsonValidation', False), 'facts': ('MessageJsonFacts', False), 'reflection': ('MessageJsonReflection', False)}


@_dc.dataclass
class MessageJsonConfirmation(Model):
    """MessageJson.Confirmation"""

    token: str | None = None
    memory_ids: list[str] | None = None
    expires_in: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonEntity(Model):
    """MessageJson.Entity"""

    name: str | None = None
    type: str | None = None
    id: str | None = None
    reused: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonFacts(Model):
    """MessageJson.Facts"""

    extracted: int | None = None
    written: list[str] | None = None
    skipped: list[MessageJsonSkippedFact] | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'skipped': ('MessageJsonSkippedFact', True)}


@_dc.dataclass
class MessageJsonNotForgotten(Model):
    """MessageJson.NotForgotten"""

    id: str | None = None
    code: str | None = None
    message: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonPassRate(Model):
    """MessageJson.PassRate"""

    pass_: int | None = None
    trimmed: int | None = None
    rejected: int | None = None
    rate: float | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {'pass': 'pass_'}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonReflection(Model):
    """MessageJson.Reflection"""

    request_id: str | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonRelation(Model):
    """MessageJson.Relation"""

    from_: str | None = None
    relation: str | None = None
    to: str | None = None
    skipped: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {'from': 'from_'}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonRouting(Model):
    """The router's answer as used, or `skipped` with why there was none."""

    store: str | None = None
    entities: list[MessageJsonEntity] | None = None
    relations: list[MessageJsonRelation] | None = None
    tags: list[str] | None = None
    confidence: str | None = None
    core_update: bool | None = None
    summary: str | None = None
    summary_rejected: str | None = None
    model: str | None = None
    skipped: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'entities': ('MessageJsonEntity', True), 'relations': ('MessageJsonRelation', True)}


@_dc.dataclass
class MessageJsonSkippedFact(Model):
    """MessageJson.SkippedFact"""

    content: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MessageJsonValidation(Model):
    """The writing constraints' verdict on the model-written texts of this message, and the process's pass rate."""

    outcomes: list[str] | None = None
    reasons: list[str] | None = None
    pass_rate: MessageJsonPassRate | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'pass_rate': ('MessageJsonPassRate', False)}


@_dc.dataclass
class NewKey(Model):
    """POST /v1/keys."""

    id: str | None = None
    role: str | None = None
    agent_id: str | None = None
    spaces: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class OpsBucket(Model):
    """One bucket's count."""

    start: str | None = None
    node: str | None = None
    op: str | None = None
    status: str | None = None
    count: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class OpsPage(Model):
    """The answer of `GET /v1/spaces/{space}/ops`."""

    space: str | None = None
    since: str | None = None
    until: str | None = None
    bucket: str | None = None
    buckets: list[OpsBucket] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'buckets': ('OpsBucket', True)}


@_dc.dataclass
class PendingProfileValue(Model):
    """A benign value proposed by one signal, waiting for a second, distinct one."""

    field: str | None = None
    value: str | None = None
    signals: list[ProfileSignal] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'signals': ('ProfileSignal', True)}


@_dc.dataclass
class Profile(Model):
    """A space's user profile (docs/architecture.md §21): its fields and the benign values awaiting corroboration."""

    space: str | None = None
    fields: list[ProfileField] | None = None
    pending: list[PendingProfileValue] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'fields': ('ProfileField', True), 'pending': ('PendingProfileValue', True)}


@_dc.dataclass
class ProfileField(Model):
    """One field and the event that set it."""

    set_by: Actor | None = None
    name: str | None = None
    value: str | None = None
    sensitivity: str | None = None
    set_seq: int | None = None
    set_at: str | None = None
    applied_by: str | None = None
    consent_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'set_by': ('Actor', False)}


@_dc.dataclass
class ProfileSignal(Model):
    """A signal: who proposed the value, from which source, how sure."""

    actor: Actor | None = None
    source: str | None = None
    confidence: str | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'actor': ('Actor', False)}


@_dc.dataclass
class ProfileWrite(Model):
    """What a profile write did (the answer of `PUT /profile/{field}` and of gRPC SetProfileField)."""

    result: str | None = None
    seq: int | None = None
    consent_id: str | None = None
    profile: Profile | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'profile': ('Profile', False)}


@_dc.dataclass
class Proposal(Model):
    """A proposal as the REST API shows it (the fields of docs/architecture.md §10, snake_case), with its conflict flags."""

    resolved_by: Actor | None = None
    id: str | None = None
    space: str | None = None
    status: str | None = None
    version: int | None = None
    proposer: Actor | None = None
    content: str | None = None
    kind: str | None = None
    category: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    core_worthy: bool | None = None
    pinned: bool | None = None
    trigger: str | None = None
    submitted_seq: int | None = None
    submitted_at: str | None = None
    updated_seq: int | None = None
    resolved_at: str | None = None
    reason: str | None = None
    memory_id: str | None = None
    conflicts_with: list[str] | None = None
    conflict: bool | None = None
    review_mode: str | None = None
    flags: list[ProposalFlag] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'resolved_by': ('Actor', False), 'proposer': ('Actor', False), 'flags': ('ProposalFlag', True)}


@_dc.dataclass
class ProposalFlag(Model):
    """One conflict or duplicate flag."""

    id: str | None = None
    target: str | None = None
    kind: str | None = None
    similarity: float | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ProposalListJson(Model):
    """The open (pending and deferred) proposals of a space, oldest first."""

    items: list[Proposal] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Proposal', True)}


@_dc.dataclass
class ProposalWriteResult(Model):
    """The answer of an accepted proposal write: the proposal after it, the committed memory (commit only), the seq."""

    proposal: Proposal | None = None
    memory: Memory | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'proposal': ('Proposal', False), 'memory': ('Memory', False)}


@_dc.dataclass
class ProposeMemory(Model):
    """A proposed memory. Only content is required."""

    content: str | None = None
    kind: str | None = None
    category: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    core_worthy: bool | None = None
    pinned: bool | None = None
    trigger: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Query(Model):
    """Hybrid (keyword + meaning) search of a space's memories."""

    agent: str | None = None
    query: str | None = None
    categories: list[str] | None = None
    filters: dict | None = None
    top_k: int | None = None
    return_: str | None = None
    budget_tokens: int | None = None
    threshold: float | None = None
    include_superseded: bool | None = None
    include_dormant: bool | None = None
    thread_id: str | None = None
    since_rev: int | None = None
    as_of_seq: int | None = None
    as_of: str | None = None
    date_filter: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {'return': 'return_'}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class QueryJsonAnswer(Model):
    """QueryJson.Answer"""

    header: str | None = None
    revision: int | None = None
    items: list[QueryJsonItem] | None = None
    tokens: int | None = None
    omitted: int | None = None
    text: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('QueryJsonItem', True)}


@_dc.dataclass
class QueryJsonContext(Model):
    """QueryJson.Context"""

    refinement: ContextRefinement | None = None
    text: str | None = None
    tokens: int | None = None
    revision: int | None = None
    core_truncated: bool | None = None
    memory_ids: list[str] | None = None
    omitted: int | None = None
    core_tokens: int | None = None
    core_omitted: list[str] | None = None
    warnings: list[str] | None = None
    pending_proposals: int | None = None
    manual_proposals: int | None = None
    questions: list[ContextQuestion] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'refinement': ('ContextRefinement', False), 'questions': ('ContextQuestion', True)}


@_dc.dataclass
class QueryJsonItem(Model):
    """QueryJson.Item"""

    id: str | None = None
    category: str | None = None
    text: str | None = None
    score: float | None = None
    decay: str | None = None
    related: list[QueryJsonRelated] | None = None
    memory: Memory | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'related': ('QueryJsonRelated', True), 'memory': ('Memory', False)}


@_dc.dataclass
class QueryJsonRelated(Model):
    """QueryJson.Related"""

    id: str | None = None
    relation: str | None = None
    strength: float | None = None
    text: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RefinementChange(Model):
    """One memory before (null when created) and after the edit."""

    memory_id: str | None = None
    before: Memory | None = None
    after: Memory | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'before': ('Memory', False), 'after': ('Memory', False)}


@_dc.dataclass
class RefinementCompletion(Model):
    """The answer of complete_refinement: the completed session, its journal memory and the chain position."""

    session: RefinementSession | None = None
    journal: Memory | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'session': ('RefinementSession', False), 'journal': ('Memory', False)}


@_dc.dataclass
class RefinementCounts(Model):
    """What the session did so far."""

    consolidations: int | None = None
    consolidated_inputs: int | None = None
    updates: int | None = None
    deletions: int | None = None
    protections: int | None = None
    duplicates_removed: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RefinementEdit(Model):
    """One edit of a refinement session: the chain event, and every memory it changed before and after."""

    seq: int | None = None
    event_type: str | None = None
    request_id: str | None = None
    actor: Actor | None = None
    occurred_at: str | None = None
    description: str | None = None
    changes: list[RefinementChange] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'actor': ('Actor', False), 'changes': ('RefinementChange', True)}


@_dc.dataclass
class RefinementSearch(Model):
    """Keywords and/or a creation time range over the session's ledger."""

    query: str | None = None
    created_after: str | None = None
    created_before: str | None = None
    limit: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RefinementSearchResult(Model):
    """The answer of search_memories: matching ledger memories, best first."""

    session_id: str | None = None
    items: list[LedgerEntry] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('LedgerEntry', True)}


@_dc.dataclass
class RefinementSession(Model):
    """A refinement session (docs/architecture.md §9): what the agent is given while it is open, and its outcome once completed."""

    started_by: Actor | None = None
    completed_by: Actor | None = None
    session_id: str | None = None
    space: str | None = None
    state: str | None = None
    trigger: str | None = None
    reason: str | None = None
    started_seq: int | None = None
    started_at: str | None = None
    core_tokens_at_start: int | None = None
    target_tokens: int | None = None
    core_tokens: int | None = None
    budget: str | None = None
    ledger_size_at_start: int | None = None
    counts: RefinementCounts | None = None
    protected_ids: list[str] | None = None
    completed_seq: int | None = None
    completed_at: str | None = None
    summary: str | None = None
    agent_summary: str | None = None
    journal_id: str | None = None
    tokens_after: int | None = None
    ledger: list[LedgerEntry] | None = None
    edits: list[RefinementEdit] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'started_by': ('Actor', False), 'completed_by': ('Actor', False), 'counts': ('RefinementCounts', False), 'ledger': ('LedgerEntry', True), 'edits': ('RefinementEdit', True)}


@_dc.dataclass
class RefinementSessions(Model):
    """A space's refinement sessions, oldest first (without ledgers and edits)."""

    items: list[RefinementSession] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('RefinementSession', True)}


@_dc.dataclass
class Reflection(Model):
    """A reflection as the API shows it (docs/architecture.md §18): the pending document and, once decided, the decision."""

    proposed_by: Actor | None = None
    decided_by: Actor | None = None
    id: str | None = None
    space: str | None = None
    status: str | None = None
    number: int | None = None
    milestone: str | None = None
    trigger: str | None = None
    trigger_detail: str | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    episode_ids: list[str] | None = None
    priorities: list[str] | None = None
    guidance: str | None = None
    evolution_insights: list[str] | None = None
    contradictions: list[str] | None = None
    questions: list[str] | None = None
    summary: str | None = None
    changes: list[ReflectionChange] | None = None
    output_tokens: int | None = None
    output_token_cap: int | None = None
    model: str | None = None
    proposed_seq: int | None = None
    proposed_at: str | None = None
    decided_seq: int | None = None
    decided_at: str | None = None
    decision: str | None = None
    reason: str | None = None
    applied_change_ids: list[str] | None = None
    memory_ids: list[str] | None = None
    edited_changes: list[ReflectionChange] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'proposed_by': ('Actor', False), 'decided_by': ('Actor', False), 'changes': ('ReflectionChange', True), 'edited_changes': ('ReflectionChange', True)}


@_dc.dataclass
class ReflectionChange(Model):
    """One proposed change of a reflection (docs/architecture.md §18), as shown and as edited in a decision."""

    change_id: str | None = None
    type: str | None = None
    reason: str | None = None
    memory_id: str | None = None
    to_id: str | None = None
    label: str | None = None
    content: str | None = None
    summary: str | None = None
    category: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    relation_type: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ReflectionLog(Model):
    """The reflection log of a space (docs/architecture.md §18), oldest first, and its evolution record: the insights of the approved (wholly or partly) reflections, in order."""

    items: list[Reflection] | None = None
    evolution: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'items': ('Reflection', True)}


@_dc.dataclass
class ReflectionRequested(Model):
    """The manual trigger's answer."""

    request_id: str | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RelationJson(Model):
    """One relation edge."""

    from_id: str | None = None
    to_id: str | None = None
    type: str | None = None
    strength: float | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RelationsJson(Model):
    """The relation edges of one memory, outgoing then incoming."""

    id: str | None = None
    relations: list[RelationJson] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'relations': ('RelationJson', True)}


@_dc.dataclass
class RequestGrant(Model):
    """`POST /v1/spaces/{space}/grants`: an admin asks to read content (docs/architecture.md §13)."""

    grantee: str | None = None
    purpose: str | None = None
    duration_seconds: int | None = None
    memory_ids: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RequestReflection(Model):
    """The manual trigger's body."""

    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ResolveContradiction(Model):
    """The body of `POST /contradictions/{id}:resolve`."""

    resolution: str | None = None
    winner_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class ReviewProposal(Model):
    """Why, and for commit the classification to use instead of the proposed one."""

    reason: str | None = None
    expected_version: int | None = None
    kind: str | None = None
    tier: str | None = None
    category: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    pinned: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RevokeGrant(Model):
    """The revocation's body."""

    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class Rollback(Model):
    """Body of POST /v1/spaces/{space}/rollback/plan (dry run) and POST /v1/spaces/{space}/rollback (apply). At most one of memory_id, session_id, actor and reflection_id names the scope; none rolls back the whole space."""

    memory_id: str | None = None
    session_id: str | None = None
    actor: str | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    to_time: str | None = None
    reason: str | None = None
    plan_digest: str | None = None
    reflection_id: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RollbackEdgeDiff(Model):
    """One relation edge's change."""

    from_id: str | None = None
    to_id: str | None = None
    before_type: str | None = None
    after_type: str | None = None
    after_strength: float | None = None
    events: list[str] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class RollbackMemoryDiff(Model):
    """One memory's change: the event the sequencer appends for it, and its snapshot now and after."""

    id: str | None = None
    action: str | None = None
    event: str | None = None
    before: Memory | None = None
    after: Memory | None = None
    changed_fields: list[str] | None = None
    version_before: int | None = None
    version_after: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'before': ('Memory', False), 'after': ('Memory', False)}


@_dc.dataclass
class RollbackPlan(Model):
    """A rollback plan (the dry run's diff), or an applied one with the seq and request id of its events."""

    space: str | None = None
    scope: str | None = None
    scope_id: str | None = None
    target_seq: int | None = None
    target_time: str | None = None
    range_to_seq: int | None = None
    head_seq: int | None = None
    events_read: int | None = None
    plan_digest: str | None = None
    memories: list[RollbackMemoryDiff] | None = None
    edges: list[RollbackEdgeDiff] | None = None
    applied: bool | None = None
    seq: int | None = None
    request_id: str | None = None
    content_shown: bool | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'memories': ('RollbackMemoryDiff', True), 'edges': ('RollbackEdgeDiff', True)}


@_dc.dataclass
class RotateChainKey(Model):
    """Body of `rotate`: the key to rotate to (omitted: a new key in the service's key directory) and why."""

    key_id: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class SaveCheckpoint(Model):
    """The body of `POST /v1/spaces/{space}/checkpoints`."""

    user_id: str | None = None
    thread_id: str | None = None
    checkpoint_id: str | None = None
    parent_id: str | None = None
    state: dict | None = None
    metadata: dict | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class SetProfileField(Model):
    """The body of `PUT /profile/{field}`."""

    value: str | None = None
    source: str | None = None
    confidence: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class SpaceExport(Model):
    """A space's memories as a portable document (docs/architecture.md §13): what `GET /export` answers and `POST /import` takes. Memories keep their original ids and timestamps as data; an import creates new memories (new ids, new chain positions) whose `created_at` is the exported one."""

    format: str | None = None
    space: str | None = None
    exported_at: str | None = None
    head_seq: int | None = None
    user_id: str | None = None
    memories: list[Memory] | None = None
    blocks: list[Memory] | None = None
    relations: list[ExportedRelation] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'memories': ('Memory', True), 'blocks': ('Memory', True), 'relations': ('ExportedRelation', True)}


@_dc.dataclass
class StartRefinement(Model):
    """Optional body of POST /v1/spaces/{space}/refinements."""

    target_tokens: int | None = None
    reason: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class SuspectEvents(Model):
    """Seqs `from_seq..to_seq` signed by `key_id`, marked compromised after `trusted_up_to` at `marked_at_seq`."""

    key_id: str | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    trusted_up_to: int | None = None
    marked_at_seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class UpdateBlock(Model):
    """PUT /v1/spaces/{space}/blocks/{label}: the new version of a labelled core block."""

    content: str | None = None
    core: bool | None = None
    expected_version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class UpdateMemory(Model):
    """Fields to change; absent fields stay as they are."""

    content: str | None = None
    summary: str | None = None
    tags: list[str] | None = None
    importance: int | None = None
    confidence: str | None = None
    category: str | None = None
    tier: str | None = None
    expected_version: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class WriteResult(Model):
    """The answer of every accepted write: the memory as it is after the change, and the chain position of the event."""

    memory: Memory | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {'memory': ('Memory', False)}
