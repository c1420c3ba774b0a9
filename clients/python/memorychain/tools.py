"""Ready-made tools for OpenAI-style function calling: the service's agent tools (the same definitions as its MCP
tools, ``GET /v1/tools``), and a runner that executes a model's tool call through the service's MCP endpoint
(``tools/call``)::

    tools = tool_definitions(["memory_commit", "memory_recall"])      # give these to the model
    result = run_tool(memory, tool_call, space="assistant")            # a tool call from the model's answer
"""
from __future__ import annotations

import copy
import json
import uuid
from importlib import resources
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .errors import MemoryChainError, error_for
from .transport import Request

if TYPE_CHECKING:
    from .client import MemoryChain

__all__ = ["TOOL_DEFINITIONS", "tool_definitions", "fetch_tool_definitions", "run_tool"]

#: The tool definitions this client ships (a copy of the service's ``GET /v1/tools``, ``docs/openai-tools.json``).
TOOL_DEFINITIONS: list[dict[str, Any]] = json.loads(
    resources.files(__package__).joinpath("tool_definitions.json").read_text(encoding="utf-8"))["tools"]


def tool_definitions(names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The tool definitions (copies), optionally only some by name, e.g. ``["memory_commit", "memory_recall"]``."""
    every = copy.deepcopy(TOOL_DEFINITIONS)
    if names is None:
        return every
    known = {t["function"]["name"] for t in every}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError("unknown tool(s): " + ", ".join(unknown))
    return [t for t in every if t["function"]["name"] in names]


def fetch_tool_definitions(client: MemoryChain) -> list[dict[str, Any]]:
    """The definitions as the running service serves them now (``GET /v1/tools``)."""
    return client.transport.send(Request("GET", "/v1/tools")).json()["tools"]


def _name_and_arguments(call: Any) -> tuple[str, dict[str, Any]]:
    """A tool call as a chat-completions answer gives it (a dict, or an SDK object with ``.function``)."""
    fn = call.get("function", call) if isinstance(call, Mapping) else getattr(call, "function", call)
    name = fn["name"] if isinstance(fn, Mapping) else fn.name
    arguments = fn.get("arguments") if isinstance(fn, Mapping) else getattr(fn, "arguments", None)
    if isinstance(arguments, str):
        arguments = json.loads(arguments) if arguments.strip() else {}
    if arguments is not None and not isinstance(arguments, Mapping):
        raise ValueError(f"the arguments of {name} are not a JSON object")
    return name, dict(arguments or {})


def run_tool(client: MemoryChain, call: Any, *, space: str | None = None,
             idempotency_key: str | None = None) -> Any:
    """Runs one tool call and gives the tool's answer (parsed JSON, or the text): feed it back to the model as the
    tool message. ``space`` is used when the model's arguments name none; a write tool without an
    ``idempotency_key`` gets one (a new UUID unless given), the same on each retry. A refusal of the service is
    raised as its typed error (e.g. :class:`~memorychain.errors.UnknownBlockLabelError`)."""
    name, args = _name_and_arguments(call)
    definition = next((t for t in TOOL_DEFINITIONS if t["function"]["name"] == name), None)
    takes = (definition or {}).get("function", {}).get("parameters", {}).get("properties", {})
    if space is not None and "space" not in args:
        args["space"] = space
    if "idempotency_key" in takes and "idempotency_key" not in args:
        args["idempotency_key"] = idempotency_key or str(uuid.uuid4())
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": args}}
    response = client.transport.send(Request("POST", "/mcp", body=json.dumps(body).encode("utf-8"),
                                             content_type="application/json",
                                             headers={"Accept": "application/json, text/event-stream"}))
    answer = response.json() or {}
    if answer.get("error"):
        error = answer["error"]
        data = error.get("data")
        raise error_for("INVALID_ARGUMENT", error.get("message", "") + (f": {data}" if data else ""),
                        status=response.status, body=error)
    result = answer.get("result") or {}
    text = "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        parsed = text  # a plain-text answer
    if result.get("isError"):
        if isinstance(parsed, dict) and isinstance(parsed.get("code"), str):
            raise error_for(parsed["code"], parsed.get("message", ""), parsed.get("request_id"), body=parsed)
        raise MemoryChainError("INVALID_ARGUMENT", text)
    return parsed
