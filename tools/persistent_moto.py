"""moto's server for Docker Compose, with Secrets Manager's writes kept on disk.

moto keeps its state in memory, so a restart of the `secrets` container used to lose the key
ring. This runs the same moto server with one addition: every Secrets Manager request that
changes something (CreateSecret, PutSecretValue, DeleteSecret, …) and succeeds is appended to
a journal file, and fsync'd, before its response goes out; at start the journal is replayed
into the empty server before it listens. Reads are not journaled, so the file grows with key
rotations (a few lines a year), not with the app's refreshes.

The journal holds the secrets themselves (the key ring), as moto's memory did: keep it on its
own volume, mode 0600, and back it up apart from the database (docs/how-to/docker-compose.md).

    python persistent_moto.py --host 0.0.0.0 --port 5000 --journal /var/lib/secrets/journal.jsonl

Standalone on purpose: the image's `secrets` stage has moto and nothing of CareVault.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server
from werkzeug.test import Client

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

SERVICE = "secretsmanager"
# Secrets Manager actions that change nothing; every other action is journaled.
READ_ONLY = ("Get", "List", "Describe", "BatchGet", "Validate")
CREDENTIAL_REGION = re.compile(r"Credential=[^/,]+/\d{8}/([a-z0-9-]+)/")
DEFAULT_REGION = "us-east-1"


class JournalError(RuntimeError):
    """The journal cannot be read back faithfully; the server refuses to start on it."""


class Journal:
    """JSON lines, one per acknowledged write: {"target", "region", "body"}."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def entries(self) -> list[dict[str, str]]:
        """Every complete entry. A torn last line (the process died while appending, so its
        request was never acknowledged) is cut off; a bad line before it is refused."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        complete, _, torn = data.rpartition(b"\n")
        if torn:
            with open(self.path, "r+b") as handle:
                handle.truncate(len(complete) + 1 if complete else 0)
                os.fsync(handle.fileno())
            print(f"persistent_moto: cut a torn last line off {self.path}", file=sys.stderr)
        found = []
        for number, line in enumerate(complete.splitlines(), start=1):
            try:
                entry = json.loads(line)
                found.append({k: str(entry[k]) for k in ("target", "region", "body")})
            except (ValueError, KeyError, TypeError):
                raise JournalError(f"{self.path} line {number} is not a journal entry") from None
        return found

    def append(self, entry: dict[str, str]) -> None:
        line = json.dumps(entry, separators=(",", ":")).encode() + b"\n"
        with self._lock:
            new = not self.path.exists()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
            if new:  # the file's name must survive a crash too
                directory = os.open(self.path.parent, os.O_RDONLY)
                try:
                    os.fsync(directory)
                finally:
                    os.close(directory)


def region_of(environ: dict[str, Any]) -> str:
    match = CREDENTIAL_REGION.search(environ.get("HTTP_AUTHORIZATION", ""))
    return match.group(1) if match else DEFAULT_REGION


class JournalingApp:
    """WSGI middleware: a successful Secrets Manager write is journaled before it is answered.
    Writes go one at a time, so the journal's order is the order moto applied them."""

    def __init__(self, app: WSGIApp, journal: Journal) -> None:
        self.app = app
        self.journal = journal
        self._writes = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        service, _, action = target.partition(".")
        if service.lower() != SERVICE or not action or action.startswith(READ_ONLY):
            return self.app(environ, start_response)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        answer: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer.update(status=status, headers=headers, exc_info=exc_info)
            return lambda _data: None

        with self._writes:
            result = self.app(environ, capture)
            try:
                content = b"".join(result)
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()
            if str(answer["status"]).startswith("2"):
                self.journal.append(
                    {"target": target, "region": region_of(environ), "body": body.decode()}
                )
        start_response(answer["status"], answer["headers"], answer["exc_info"])
        return [content]


def replay(app: WSGIApp, journal: Journal) -> int:
    """Apply the journal to a server that has not started listening; every entry must
    succeed again, or the server would serve a state nobody acknowledged."""
    client = Client(app)
    entries = journal.entries()
    for number, entry in enumerate(entries, start=1):
        response = client.post(
            "/",
            data=entry["body"].encode(),
            headers={
                "X-Amz-Target": entry["target"],
                "Content-Type": "application/x-amz-json-1.1",
                "Authorization": (
                    f"AWS4-HMAC-SHA256 Credential=journal/20000101/{entry['region']}/"
                    f"{SERVICE}/aws4_request, SignedHeaders=host, Signature=0"
                ),
            },
        )
        if response.status_code >= 300:
            action = entry["target"].partition(".")[2]
            raise JournalError(
                f"replaying {journal.path} entry {number} ({action}) failed with HTTP "
                f"{response.status_code}; the file is left as it is"
            )
    return len(entries)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--journal", type=Path, required=True, help="the journal file")
    args = parser.parse_args(argv)
    os.environ.setdefault("MOTO_PORT", str(args.port))
    args.journal.parent.mkdir(parents=True, exist_ok=True)
    # Imported here: moto takes 0.2 s to import, and the journal is read without it (tests).
    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )

    moto_app = DomainDispatcherApplication(create_backend_app)
    journal = Journal(args.journal)
    try:
        restored = replay(moto_app, journal)
    except JournalError as exc:
        sys.exit(f"persistent_moto: {exc}")
    server = make_server(
        args.host,
        args.port,
        JournalingApp(moto_app, journal),
        threaded=True,
        request_handler=MotoRequestHandler,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(
        f"persistent_moto: {restored} write(s) restored from {args.journal}; listening on "
        f"{args.host}:{server.server_port}",
        flush=True,
    )
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
