"""A space's changes as server-sent events (``GET /v1/spaces/{space}/changes``), resumed after a dropped connection.

The event stream is read as the HTML standard interprets it: ``data:`` lines join with a line feed, ``event:`` names the
type, ``id:`` sets the last event id, ``retry:`` (digits only) the reconnection time, lines starting with a colon are
comments (the service's keep-alives), and a blank line dispatches an event (none without data).
"""
from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .errors import MemoryChainError, error_for
from .transport import Request, Transport, _error, _response, retry_after_seconds

# codes after which the watch reconnects (the server stops, moves or is busy); any other error ends it
RECONNECT = frozenset({"UNAVAILABLE", "REBALANCING", "TIMEOUT", "RATE_LIMITED"})


@dataclass(frozen=True)
class Event:
    id: str | None
    type: str
    data: str


class EventStreamParser:
    """Lines in (without their line ending), events out; :attr:`retry` holds the last ``retry:`` in seconds."""

    def __init__(self) -> None:
        self._data: list[str] = []
        self._type: str | None = None
        self.last_event_id: str | None = None
        self.retry: float | None = None
        self._first = True

    def line(self, line: str) -> Event | None:
        if self._first:
            self._first = False
            line = line.removeprefix("\ufeff")
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            self._type = value
        elif field == "data":
            self._data.append(value)
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value) / 1000.0
        return None

    def _dispatch(self) -> Event | None:
        if not self._data:
            self._type = None
            return None
        event = Event(self.last_event_id, self._type or "message", "\n".join(self._data))
        self._data, self._type = [], None
        return event


def parse(lines: Iterable[str]) -> Iterator[Event]:
    parser = EventStreamParser()
    for line in lines:
        event = parser.line(line)
        if event is not None:
            yield event


def watch(transport: Transport, space: str, after_seq: int = 0, *, idle_timeout: float = 60.0,
          max_backoff: float = 30.0, sleep: Callable[[float], None] = time.sleep) -> Iterator[dict[str, Any]]:
    """Each audit entry (a JSON dict) after ``after_seq``, once, in seq order, for as long as the caller iterates.

    A dropped connection (a network error, a cut stream, a restarting server, or ``idle_timeout`` seconds without a
    byte although the service sends a keep-alive every 15 s) is reopened with ``Last-Event-ID`` = the last seq yielded,
    after the stream's ``retry:`` (or 1 s), doubled after each failed attempt up to ``max_backoff``, or a 429/503's
    Retry-After. An error event or answer with another code raises its :class:`MemoryChainError`. Closing the
    generator closes the connection.
    """
    if after_seq < 0:
        raise ValueError(f"after_seq must be 0 or more, was {after_seq}")
    path = "/v1/spaces/" + urllib.parse.quote(space, safe="") + "/changes"
    last = after_seq
    retry = 1.0
    failed = 0
    while True:
        wait: float | None = None
        opened = False
        try:
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache", "Last-Event-ID": str(last),
                       "User-Agent": transport.user_agent}
            if transport.api_key:
                headers["Authorization"] = "Bearer " + transport.api_key
            req = urllib.request.Request(transport.base_url + path, headers=headers, method="GET")
            try:
                answer = urllib.request.urlopen(req, timeout=idle_timeout)  # noqa: S310 (the caller's URL)
            except urllib.error.HTTPError as e:
                response = _response(e.code, e.headers, e.read())
                error = _error(Request("GET", path), response, retry_after_seconds(response.header("Retry-After")))
                if error.code not in RECONNECT:
                    raise error from None
                wait = error.retry_after
            else:
                with answer:
                    opened = True
                    parser = EventStreamParser()
                    for raw in answer:  # each read waits at most idle_timeout (the socket's timeout)
                        event = parser.line(raw.decode("utf-8").rstrip("\r\n"))
                        if parser.retry is not None:
                            retry = parser.retry
                        if event is None:
                            continue
                        data = json.loads(event.data)
                        if event.type == "error":
                            error = error_for(data.get("code"), str(data.get("message") or ""),
                                              data.get("request_id"), 200, None, data)
                            if error.code not in RECONNECT:
                                raise error
                            break
                        seq = int(data.get("seq", -1))
                        if seq <= last:
                            continue  # delivered before
                        yield data
                        last = seq
        except MemoryChainError:
            raise
        except (TimeoutError, socket.timeout, ConnectionError, urllib.error.URLError, http.client.HTTPException,
                OSError):
            pass  # dropped, silent or refused: reconnect
        if opened:
            failed = 0
        failed += 1
        delay = min(max(retry * (2 ** (failed - 1)), 0.1), max_backoff)
        if wait is not None:
            delay = min(max(delay, wait), max_backoff)
        sleep(delay)
