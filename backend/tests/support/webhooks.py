"""A webhook receiver on loopback for the delivery tests: a real HTTP server in a thread,
answering each POST with the status the test sets and keeping what it received."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    status: int = 200
    # What the receiver answers with: an echo of PHI would be its business, never ours to log.
    answer: bytes = b"ok"
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bodies(self) -> list[bytes]:
        with self.lock:
            return [r.body for r in self.received]


@contextmanager
def loopback_receiver(path: str = "/hook") -> Iterator[Receiver]:
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            with receiver.lock:
                receiver.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                status, answer = receiver.status, receiver.answer
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "http://127.0.0.1:1/elsewhere")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
