"""The Memory Chain client: one method per REST operation of the service's operation catalogue.

Conventions: the first arguments are the space and the ids of the route; reads take their query parameters as keyword
arguments; writes take a body dict and/or its fields as keyword arguments, and ``if_match`` (a version, or a file's
ETag) and ``idempotency_key`` (default: a new UUID, kept across the retries of that call).
"""
from __future__ import annotations

import json
import urllib.parse
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import files, models, watch
from .errors import VersionConflictError
from .operations import ROUTES
from .transport import Request, Response, RetryPolicy, Transport

Body = dict[str, Any] | None


@dataclass(frozen=True)
class MarkdownText:
    """A Markdown file of the space's file view and its ETag (send it back as ``if_match``)."""

    path: str
    text: str
    etag: str | None


def if_match_header(version: int | str | None) -> str | None:
    """The If-Match value of an expected version: ``3`` -> ``"3"``; an entity tag (a file's ETag) as it is."""
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, (int, str)):
        raise TypeError("if_match is a version number or an entity tag")
    return f'"{version}"' if isinstance(version, int) else version


class MemoryChain:
    """A client of one Memory Chain service, with one API key."""

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0,
                 retry: RetryPolicy | None = None, sleep: Callable[[float], None] | None = None):
        kwargs = {"sleep": sleep} if sleep is not None else {}
        self.transport = Transport(base_url, api_key, timeout, retry, **kwargs)

    # --- plumbing ---------------------------------------------------------------------------------------------

    def call(self, operation: str, path: dict[str, str] | None = None, *, query: dict[str, Any] | None = None,
             body: Any = None, if_match: int | str | None = None, idempotency_key: str | None = None,
             content_type: str | None = None, accept: str | None = None) -> Response:
        """One operation of the catalogue by its name, e.g. ``call("GET_CORE", {"space": "a"})``."""
        route = ROUTES[operation]
        url = route.path.format(**{k: _segment(k, v) for k, v in (path or {}).items()})
        headers: dict[str, str] = {}
        if route.write:
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        elif idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        tag = if_match_header(if_match)
        if tag is not None:
            headers["If-Match"] = tag
        if accept:
            headers["Accept"] = accept
        data = None
        if isinstance(body, str):
            data, content_type = body.encode("utf-8"), content_type or "text/markdown"
        elif body is not None:
            data, content_type = json.dumps(body).encode("utf-8"), content_type or "application/json"
        request = Request(route.method, url, dict(query or {}), data, content_type, headers,
                          retry_safe=operation != "ISSUE_KEY")
        return self.transport.send(request)

    def _typed(self, operation: str, path: dict[str, str], **kwargs: Any) -> Any:
        response = self.call(operation, path, **kwargs)
        data = response.json()
        answer = ROUTES[operation].answer
        if not answer or not isinstance(data, dict):
            return data
        return (getattr(models, answer, None) or getattr(files, answer)).from_dict(data)

    def _write(self, operation: str, path: dict[str, str], body: Body, fields: dict[str, Any],
               if_match: int | str | None, idempotency_key: str | None) -> Any:
        merged = {**(body or {}), **fields} if (body or fields) else None
        return self._typed(operation, path, body=merged, if_match=if_match, idempotency_key=idempotency_key)

    # --- memories ---------------------------------------------------------------------------------------------

    def create_memory(self, space: str, body: Body = None, /, *, if_match: int | str | None = None,
                      idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("CREATE_MEMORY", {"space": space}, body, fields, if_match, idempotency_key)

    def get_memory(self, space: str, memory_id: str, **query: Any) -> models.Memory:
        return self._typed("GET_MEMORY", {"space": space, "id": memory_id}, query=query)

    def list_memories(self, space: str, **query: Any) -> models.MemoryPage:
        return self._typed("LIST_MEMORIES", {"space": space}, query=query)

    def iter_memories(self, space: str, **query: Any) -> Iterator[models.Memory]:
        """Every memory of a listing, page after page (``after`` = the previous page's ``next``)."""
        while True:
            page = self.list_memories(space, **query)
            yield from page.items or []
            if not page.next:
                return
            query = {**query, "after": page.next}

    def update_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                      idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("UPDATE_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def update_memory_checked(self, space: str, memory_id: str, change: Callable[[models.Memory], dict[str, Any]],
                              attempts: int = 3) -> models.WriteResult:
        """Read, change, write with ``If-Match`` the version read; on VERSION_CONFLICT read again (``attempts`` in
        all). ``change`` gets the memory as it is and returns the fields to change."""
        for attempt in range(1, attempts + 1):
            current = self.get_memory(space, memory_id)
            try:
                return self.update_memory(space, memory_id, change(current), if_match=current.version)
            except VersionConflictError:
                if attempt == attempts:
                    raise
        raise AssertionError("unreachable")

    def delete_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                      idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("DELETE_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def restore_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                       idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("RESTORE_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def protect_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                       idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("PROTECT_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def unprotect_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                         idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("UNPROTECT_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match,
                           idempotency_key)

    def erase_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                     idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("ERASE_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def purge_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                     idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("PURGE_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def erasure_proof(self, space: str, memory_id: str) -> models.ErasureProof:
        return self._typed("ERASURE_PROOF", {"space": space, "id": memory_id})

    def pin_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                   idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("PIN_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def unpin_memory(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                     idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("UNPIN_MEMORY", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def consolidate(self, space: str, body: Body = None, /, *, if_match: int | str | None = None,
                    idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("CONSOLIDATE", {"space": space}, body, fields, if_match, idempotency_key)

    def get_history(self, space: str, memory_id: str) -> models.History:
        return self._typed("GET_HISTORY", {"space": space, "id": memory_id})

    # --- blocks, core, retrieval ------------------------------------------------------------------------------

    def put_block(self, space: str, label: str, body: Body = None, /, *, if_match: int | str | None = None,
                  idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("PUT_BLOCK", {"space": space, "label": label}, body, fields, if_match, idempotency_key)

    def get_block(self, space: str, label: str) -> models.Memory:
        return self._typed("GET_BLOCK", {"space": space, "label": label})

    def get_core(self, space: str, **query: Any) -> models.Core:
        return self._typed("GET_CORE", {"space": space}, query=query)

    def query(self, space: str, body: Body = None, /, **fields: Any) -> models.QueryJsonAnswer:
        return self._typed("QUERY", {"space": space}, body={**(body or {}), **fields})

    def context(self, space: str, body: Body = None, /, **fields: Any) -> models.QueryJsonContext:
        return self._typed("CONTEXT", {"space": space}, body={**(body or {}), **fields})

    # --- relations --------------------------------------------------------------------------------------------

    def link(self, space: str, memory_id: str, body: Body = None, /, *, if_match: int | str | None = None,
             idempotency_key: str | None = None, **fields: Any) -> models.RelationsJson:
        return self._write("LINK", {"space": space, "id": memory_id}, body, fields, if_match, idempotency_key)

    def unlink(self, space: str, memory_id: str, to: str, *, idempotency_key: str | None = None) -> models.RelationsJson:
        return self._typed("UNLINK", {"space": space, "id": memory_id, "to": to}, idempotency_key=idempotency_key)

    def get_relations(self, space: str, memory_id: str) -> models.RelationsJson:
        return self._typed("GET_RELATIONS", {"space": space, "id": memory_id})

    # --- audit, ops, export, chain ----------------------------------------------------------------------------

    def list_audit(self, space: str, **query: Any) -> models.AuditPage:
        return self._typed("LIST_AUDIT", {"space": space}, query=query)

    def iter_audit(self, space: str, **query: Any) -> Iterator[models.AuditEntry]:
        """Every audit entry from ``after_seq`` on (ascending), page after page."""
        while True:
            page = self.list_audit(space, **query)
            yield from page.items or []
            if page.next_after_seq is None or not page.items:
                return
            query = {**query, "after_seq": page.next_after_seq}

    def watch_changes(self, space: str, after_seq: int = 0, *, idle_timeout: float = 60.0
                      ) -> Iterator[models.AuditEntry]:
        """``GET /changes`` (WATCH_CHANGES): the space's changes after ``after_seq`` as the service pushes them
        (server-sent events), each once and in seq order, for as long as the caller iterates; a dropped connection is
        resumed after the last seq yielded (``memorychain.watch``). Close the generator to stop."""
        for entry in watch.watch(self.transport, space, after_seq, idle_timeout=idle_timeout,
                                 sleep=self.transport.sleep):
            yield models.AuditEntry.from_dict(entry)

    def audit_digest(self, space: str, **query: Any) -> models.AuditDigest:
        return self._typed("AUDIT_DIGEST", {"space": space}, query=query)

    def list_ops(self, space: str, **query: Any) -> models.OpsPage:
        return self._typed("LIST_OPS", {"space": space}, query=query)

    def export_space(self, space: str, **query: Any) -> Any:
        """The space's export: a dict (``format="json"``, the default) or the Markdown text (``format="markdown"``)."""
        markdown = query.get("format") == "markdown"
        response = self.call("EXPORT_SPACE", {"space": space}, query=query,
                             accept="text/markdown" if markdown else None)
        return response.text() if markdown else response.json()

    def import_space(self, space: str, export: dict[str, Any], *, idempotency_key: str | None = None
                     ) -> models.ImportResult:
        return self._typed("IMPORT_SPACE", {"space": space}, body=export, idempotency_key=idempotency_key)

    def verify_chain(self, space: str, **query: Any) -> models.ChainVerification:
        return self._typed("VERIFY_CHAIN", {"space": space}, query=query)

    def chain_checkpoint(self, space: str) -> models.ChainCheckpoint:
        return self._typed("CHAIN_CHECKPOINT", {"space": space})

    def export_chain(self, space: str) -> list[dict[str, Any]]:
        """The chain as JSON Lines (a header, then one record per event), each line parsed."""
        text = self.call("EXPORT_CHAIN", {"space": space}, accept="application/x-ndjson").text()
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def chain_keys(self) -> models.ChainPublicKeys:
        """The chain's public keys (served without an API key)."""
        return self._typed("CHAIN_KEYS", {})

    # --- the Markdown file view -------------------------------------------------------------------------------

    def list_files(self, space: str) -> models.FileListJson:
        return self._typed("LIST_FILES", {"space": space})

    def read_file(self, space: str, path: str) -> MarkdownText:
        response = self.call("READ_FILE", {"space": space, "path": path}, accept="text/markdown")
        return MarkdownText(path, response.text(), response.header("ETag"))

    def write_file(self, space: str, path: str, text: str, *, if_match: int | str | None = None,
                   idempotency_key: str | None = None) -> files.MarkdownFileWrite:
        return self._typed("WRITE_FILE", {"space": space, "path": path}, body=text, if_match=if_match,
                           idempotency_key=idempotency_key)

    def patch_file(self, space: str, path: str, body: Body = None, /, *, if_match: int | str | None = None,
                   idempotency_key: str | None = None, **fields: Any) -> files.MarkdownFileWrite:
        return self._write("PATCH_FILE", {"space": space, "path": path}, body, fields, if_match, idempotency_key)

    def append_file(self, space: str, path: str, body: Body = None, /, *, if_match: int | str | None = None,
                    idempotency_key: str | None = None, **fields: Any) -> files.MarkdownFileWrite:
        return self._write("APPEND_FILE", {"space": space, "path": path}, body, fields, if_match, idempotency_key)

    # --- reflections, messages, profile, consents, alerts -----------------------------------------------------

    def list_reflections(self, space: str, **query: Any) -> models.ReflectionLog:
        return self._typed("LIST_REFLECTIONS", {"space": space}, query=query)

    def get_reflection(self, space: str, reflection_id: str) -> models.Reflection:
        return self._typed("GET_REFLECTION", {"space": space, "id": reflection_id})

    def request_reflection(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                           **fields: Any) -> dict[str, Any]:
        return self._write("REQUEST_REFLECTION", {"space": space}, body, fields, None, idempotency_key)

    def decide_reflection(self, space: str, reflection_id: str, body: Body = None, /, *,
                          if_match: int | str | None = None, idempotency_key: str | None = None,
                          **fields: Any) -> models.Reflection:
        return self._write("DECIDE_REFLECTION", {"space": space, "id": reflection_id}, body, fields, if_match,
                           idempotency_key)

    def post_message(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> models.MessageAnswer:
        return self._write("POST_MESSAGE", {"space": space}, body, fields, None, idempotency_key)

    def confirm_forget(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                       **fields: Any) -> models.ForgetConfirmed:
        return self._write("CONFIRM_FORGET", {"space": space}, body, fields, None, idempotency_key)

    def get_profile(self, space: str) -> models.Profile:
        return self._typed("GET_PROFILE", {"space": space})

    def get_profile_field(self, space: str, name: str) -> models.ProfileField:
        return self._typed("GET_PROFILE_FIELD", {"space": space, "field": name})

    def set_profile_field(self, space: str, name: str, body: Body = None, /, *, if_match: int | str | None = None,
                          idempotency_key: str | None = None, **fields: Any) -> models.ProfileWrite:
        return self._write("SET_PROFILE_FIELD", {"space": space, "field": name}, body, fields, if_match,
                           idempotency_key)

    def list_consents(self, space: str, **query: Any) -> models.ConsentList:
        return self._typed("LIST_CONSENTS", {"space": space}, query=query)

    def decide_consent(self, space: str, consent_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                       idempotency_key: str | None = None, **fields: Any) -> models.Consent:
        return self._write("DECIDE_CONSENT", {"space": space, "id": consent_id}, body, fields, if_match,
                           idempotency_key)

    # --- agent checkpoints (working state per user and thread, off the chain) ------------------------------------

    def save_checkpoint(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                        **fields: Any) -> models.AgentCheckpoint:
        """``thread_id`` and ``state`` (a dict) required; ``user_id``, ``checkpoint_id``, ``parent_id``, ``metadata``."""
        return self._write("SAVE_CHECKPOINT", {"space": space}, body, fields, None, idempotency_key)

    def get_checkpoint(self, space: str, checkpoint_id: str, **query: Any) -> models.AgentCheckpoint:
        """``thread_id=`` (and ``user_id=``) as query; the id ``latest`` is the thread's newest."""
        return self._typed("GET_CHECKPOINT", {"space": space, "id": checkpoint_id}, query=query)

    def list_checkpoints(self, space: str, **query: Any) -> models.AgentCheckpointPage:
        """A thread's checkpoints newest first: ``thread_id=``, ``user_id=``, ``limit=``, ``cursor=``."""
        return self._typed("LIST_CHECKPOINTS", {"space": space}, query=query)

    def delete_checkpoints(self, space: str, *, idempotency_key: str | None = None,
                           **query: Any) -> models.DeletedCheckpoints:
        """Every checkpoint of a thread: ``thread_id=`` (and ``user_id=``)."""
        return self._typed("DELETE_CHECKPOINTS", {"space": space}, query=query, idempotency_key=idempotency_key)

    # --- alerts ---------------------------------------------------------------------------------------------------

    def list_alerts(self, space: str, **query: Any) -> models.AlertList:
        return self._typed("LIST_ALERTS", {"space": space}, query=query)

    def acknowledge_alert(self, space: str, alert_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                          idempotency_key: str | None = None, **fields: Any) -> models.CriticalAlert:
        return self._write("ACKNOWLEDGE_ALERT", {"space": space, "id": alert_id}, body, fields, if_match,
                           idempotency_key)

    # --- refinement sessions ----------------------------------------------------------------------------------

    def start_refinement(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                         **fields: Any) -> models.RefinementSession:
        return self._write("START_REFINEMENT", {"space": space}, body, fields, None, idempotency_key)

    def list_refinements(self, space: str) -> models.RefinementSessions:
        return self._typed("LIST_REFINEMENTS", {"space": space})

    def get_refinement(self, space: str, session: str) -> models.RefinementSession:
        return self._typed("GET_REFINEMENT", {"space": space, "session": session})

    def search_refinement(self, space: str, session: str, body: Body = None, /,
                          **fields: Any) -> models.RefinementSearchResult:
        return self._typed("SEARCH_REFINEMENT", {"space": space, "session": session}, body={**(body or {}), **fields})

    def refinement_consolidate(self, space: str, session: str, body: Body = None, /, *,
                               idempotency_key: str | None = None, **fields: Any) -> models.WriteResult:
        return self._write("REFINEMENT_CONSOLIDATE", {"space": space, "session": session}, body, fields, None,
                           idempotency_key)

    def refinement_update_memory(self, space: str, session: str, memory_id: str, body: Body = None, /, *,
                                 if_match: int | str | None = None, idempotency_key: str | None = None,
                                 **fields: Any) -> models.WriteResult:
        return self._write("REFINEMENT_UPDATE_MEMORY", {"space": space, "session": session, "id": memory_id}, body,
                           fields, if_match, idempotency_key)

    def refinement_delete_memory(self, space: str, session: str, memory_id: str, body: Body = None, /, *,
                                 if_match: int | str | None = None, idempotency_key: str | None = None,
                                 **fields: Any) -> models.WriteResult:
        return self._write("REFINEMENT_DELETE_MEMORY", {"space": space, "session": session, "id": memory_id}, body,
                           fields, if_match, idempotency_key)

    def refinement_protect_memory(self, space: str, session: str, memory_id: str, *,
                                  if_match: int | str | None = None,
                                  idempotency_key: str | None = None) -> models.WriteResult:
        return self._write("REFINEMENT_PROTECT_MEMORY", {"space": space, "session": session, "id": memory_id}, None,
                           {}, if_match, idempotency_key)

    def complete_refinement(self, space: str, session: str, body: Body = None, /, *,
                            idempotency_key: str | None = None, **fields: Any) -> models.RefinementCompletion:
        return self._write("COMPLETE_REFINEMENT", {"space": space, "session": session}, body, fields, None,
                           idempotency_key)

    # --- proposals --------------------------------------------------------------------------------------------

    def propose(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                **fields: Any) -> models.ProposalWriteResult:
        return self._write("PROPOSE", {"space": space}, body, fields, None, idempotency_key)

    def list_proposals(self, space: str) -> models.ProposalListJson:
        return self._typed("LIST_PROPOSALS", {"space": space})

    def get_proposal(self, space: str, proposal_id: str) -> models.Proposal:
        return self._typed("GET_PROPOSAL", {"space": space, "id": proposal_id})

    def commit_proposal(self, space: str, proposal_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                        idempotency_key: str | None = None, **fields: Any) -> models.ProposalWriteResult:
        return self._write("COMMIT_PROPOSAL", {"space": space, "id": proposal_id}, body, fields, if_match,
                           idempotency_key)

    def reject_proposal(self, space: str, proposal_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                        idempotency_key: str | None = None, **fields: Any) -> models.ProposalWriteResult:
        return self._write("REJECT_PROPOSAL", {"space": space, "id": proposal_id}, body, fields, if_match,
                           idempotency_key)

    def defer_proposal(self, space: str, proposal_id: str, body: Body = None, /, *, if_match: int | str | None = None,
                       idempotency_key: str | None = None, **fields: Any) -> models.ProposalWriteResult:
        return self._write("DEFER_PROPOSAL", {"space": space, "id": proposal_id}, body, fields, if_match,
                           idempotency_key)

    # --- grants (Mechanic's Exception) ------------------------------------------------------------------------

    def request_grant(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                      **fields: Any) -> models.Grant:
        return self._write("REQUEST_GRANT", {"space": space}, body, fields, None, idempotency_key)

    def list_grants(self, space: str) -> models.GrantList:
        return self._typed("LIST_GRANTS", {"space": space})

    def get_grant(self, space: str, grant_id: str) -> models.Grant:
        return self._typed("GET_GRANT", {"space": space, "id": grant_id})

    def consent_grant(self, space: str, grant_id: str, *, idempotency_key: str | None = None) -> models.Grant:
        return self._write("CONSENT_GRANT", {"space": space, "id": grant_id}, None, {}, None, idempotency_key)

    def revoke_grant(self, space: str, grant_id: str, body: Body = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> models.Grant:
        return self._write("REVOKE_GRANT", {"space": space, "id": grant_id}, body, fields, None, idempotency_key)

    def grant_reads(self, space: str, grant_id: str) -> models.GrantReads:
        return self._typed("GRANT_READS", {"space": space, "id": grant_id})

    # --- rollback (admin) -------------------------------------------------------------------------------------

    def plan_rollback(self, space: str, body: Body = None, /, **fields: Any) -> models.RollbackPlan:
        return self._typed("PLAN_ROLLBACK", {"space": space}, body={**(body or {}), **fields})

    def apply_rollback(self, space: str, body: Body = None, /, *, idempotency_key: str | None = None,
                       **fields: Any) -> dict[str, Any]:
        return self._write("APPLY_ROLLBACK", {"space": space}, body, fields, None, idempotency_key)

    # --- keys and the caller ----------------------------------------------------------------------------------

    def issue_key(self, body: Body = None, /, **fields: Any) -> models.ApiKey:
        """Issue an API key (admin). Not retried after a timeout: a second attempt could issue a second key."""
        return self._typed("ISSUE_KEY", {}, body={**(body or {}), **fields})

    def list_keys(self) -> models.ApiKeys:
        return self._typed("LIST_KEYS", {})

    def revoke_key(self, key_id: str) -> models.ApiKey:
        return self._typed("REVOKE_KEY", {"id": key_id})

    def who_am_i(self) -> models.Caller:
        return self._typed("WHO_AM_I", {})


def _segment(name: str, value: str) -> str:
    """A path parameter, percent-encoded; a file path keeps its slashes."""
    return urllib.parse.quote(str(value), safe="/" if name == "path" else "")
