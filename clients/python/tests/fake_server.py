"""A scripted HTTP server on a free loopback port: answers the queued replies in order and records every request."""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict/list: JSON; str: text; None: empty
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a slow answer the client times out on)
    drop: bool = False  # close the connection without an answer


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class FakeServer:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        self._answered = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with server._lock:
                    server.requests.append(Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                                                body))
                    reply = server.replies.pop(0) if server.replies else Reply(500, {"code": "INTERNAL",
                                                                                     "message": "no reply queued"})
                if reply.delay:
                    server._answered.wait(reply.delay)  # a bounded wait the test never sets: the answer is late
                if reply.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                if isinstance(reply.body, (dict, list)):
                    data, kind = json.dumps(reply.body).encode(), "application/json"
                elif isinstance(reply.body, str):
                    data, kind = reply.body.encode(), reply.headers.get("Content-Type", "text/plain")
                else:
                    data, kind = b"", None
                try:
                    self.send_response(reply.status)
                    if kind:
                        self.send_header("Content-Type", kind)
                    for k, v in reply.headers.items():
                        if k != "Content-Type":
                            self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
                    pass

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._answered.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)
