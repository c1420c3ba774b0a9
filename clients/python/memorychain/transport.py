"""HTTP with the standard library: bearer auth, JSON, typed errors, bounded retries that honour Retry-After."""
from __future__ import annotations

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import MemoryChainError, error_for

RETRIED_STATUSES = frozenset({429, 503})
# an error answer without a JSON code (a proxy's page, say) gets the service's code for its status
CODE_OF_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "FORBIDDEN", 404: "NOT_FOUND",
                  405: "METHOD_NOT_ALLOWED", 406: "NOT_ACCEPTABLE", 409: "VERSION_CONFLICT", 413: "TOO_LARGE",
                  415: "UNSUPPORTED_MEDIA_TYPE", 421: "NOT_OWNER", 422: "REJECTED", 429: "RATE_LIMITED",
                  501: "NOT_AVAILABLE", 503: "UNAVAILABLE", 504: "TIMEOUT"}


@dataclass(frozen=True)
class RetryPolicy:
    """Retries of 429, 503 and timeouts: ``max_attempts`` in all, exponential backoff with jitter between
    ``initial_backoff`` and ``max_backoff`` seconds, or the answer's Retry-After (capped at ``max_retry_after``)."""

    max_attempts: int = 4
    initial_backoff: float = 0.2
    max_backoff: float = 5.0
    max_retry_after: float = 30.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        base = min(self.initial_backoff * (2 ** (attempt - 1)), self.max_backoff)
        return base / 2 + random.random() * base / 2


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    request_id: str | None = None

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None

    def text(self) -> str:
        return self.body.decode("utf-8")

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, Any] = field(default_factory=dict)
    body: bytes | None = None
    content_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    retry_safe: bool = True


def retry_after_seconds(value: str | None, now: Callable[[], float] = time.time) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - now(), 0.0)


def _query_string(query: dict[str, Any]) -> str:
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        pairs.append((key, str(value)))
    return ("?" + urllib.parse.urlencode(pairs)) if pairs else ""


class Transport:
    def __init__(self, base_url: str, api_key: str | None, timeout: float = 30.0, retry: RetryPolicy | None = None,
                 sleep: Callable[[float], None] = time.sleep, user_agent: str = "memorychain-python"):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.sleep = sleep
        self.user_agent = user_agent

    def send(self, request: Request) -> Response:
        """The answer of a 2xx; a typed :class:`MemoryChainError` otherwise, once retries are spent."""
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._once(request)
            except (TimeoutError, socket.timeout, ConnectionError, urllib.error.URLError) as e:
                if request.retry_safe and attempt < self.retry.max_attempts and _transient(e):
                    self.sleep(self.retry.delay(attempt, None))
                    continue
                code = "TIMEOUT" if _is_timeout(e) else "UNAVAILABLE"
                raise error_for(code, f"{request.method} {request.path}: {e}", _sent_id(request)) from e
            if 200 <= response.status < 300:
                return response
            wait = retry_after_seconds(response.header("Retry-After"))
            retriable = response.status == 429 or (response.status in RETRIED_STATUSES and request.retry_safe)
            if retriable and attempt < self.retry.max_attempts:
                self.sleep(self.retry.delay(attempt, wait))
                continue
            raise _error(request, response, wait)

    def _once(self, request: Request) -> Response:
        url = self.base_url + request.path + _query_string(request.query)
        headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if self.api_key:
            headers["Authorization"] = "Bearer " + self.api_key
        if request.content_type:
            headers["Content-Type"] = request.content_type
        headers.update(request.headers)
        req = urllib.request.Request(url, data=request.body, method=request.method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as answer:  # noqa: S310 (the caller's URL)
                return _response(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as e:
            try:
                body = e.read()
            except (OSError, ValueError):  # the error body itself was cut off
                body = b""
            return _response(e.code, e.headers, body)


def _response(status: int, headers: Any, body: bytes) -> Response:
    lowered = {k.lower(): v for k, v in (headers.items() if headers is not None else [])}
    return Response(status, lowered, body, lowered.get("x-request-id"))


def _sent_id(request: Request) -> str | None:
    return request.headers.get("Idempotency-Key")


def _is_timeout(e: BaseException) -> bool:
    reason = getattr(e, "reason", e)
    return isinstance(e, (TimeoutError, socket.timeout)) or isinstance(reason, (TimeoutError, socket.timeout))


def _transient(e: BaseException) -> bool:
    """Timeouts and dropped or refused connections; not a malformed URL or an unknown host."""
    reason = getattr(e, "reason", e)
    return _is_timeout(e) or isinstance(reason, (ConnectionError, TimeoutError)) or isinstance(e, ConnectionError)


def _error(request: Request, response: Response, retry_after: float | None) -> MemoryChainError:
    try:
        data = response.json()
    except (ValueError, UnicodeDecodeError):
        data = None
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        code, message = data["code"], str(data.get("message") or "")
        request_id = data.get("request_id") or response.request_id or _sent_id(request)
    else:
        code = CODE_OF_STATUS.get(response.status, "INTERNAL" if response.status >= 500 else "INVALID_ARGUMENT")
        message = f"HTTP {response.status}: " + response.body.decode("utf-8", "replace")[:200]
        request_id = response.request_id or _sent_id(request)
    return error_for(code, message, request_id, response.status, retry_after, data)
