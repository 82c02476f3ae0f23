"""Whole API requests, in process: the app with its real lifespan on real PostgreSQL, called
through ASGI directly, so that a benchmark measures the server's work and nothing of a client.

`InProcessApp` owns an event loop and runs the app on it; `call` builds the ASGI scope a
server would (headers, client address), sends the body and collects the answer. Timed with
the process's CPU clock (see test_requests.py), a request then costs what a worker spends on
it: middleware, routing, dependencies, SQLAlchemy and asyncpg, encryption, the audit append,
serialisation; the HTTP parsing of uvicorn is the only server work left out, and /health,
the floor, leaves it out too.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from starlette.types import Message

from carevault.auth.models import Role
from carevault.crypto import LocalFileProvider, current_cipher, install
from carevault.crypto.registry import current_backend
from tests.support.http import ApiContext, running_api

T = TypeVar("T")
CLIENT_ADDRESS = ("203.0.113.7", 50000)
Headers = list[tuple[bytes, bytes]]


@dataclass
class Answer:
    status: int
    body: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body)


class InProcessApp:
    """The app on its own event loop; `run` drives a coroutine on it from synchronous code
    (pytest-benchmark calls plain functions)."""

    def __init__(self, database_url: str, data_dir: Path, **settings: object) -> None:
        self.loop = asyncio.new_event_loop()
        LocalFileProvider(data_dir / "keyring.json").initialize()
        self._running: AbstractAsyncContextManager[ApiContext] = running_api(
            database_url,
            data_dir,
            # Sealing runs beside requests in a real server; here it would land in whichever
            # benchmark happened to be running. Its cost is measured in tools/audit_bench.py.
            audit_sealer=False,
            # The benchmarks send thousands of requests a minute with one token.
            api_rate_limit_per_minute=1_000_000,
            api_rate_limit_per_practice_per_minute=10_000_000,
            # Seeding imports 10,000 clients in one request.
            request_timeout_seconds=120,
            **settings,
        )
        self.context = self.run(self._running.__aenter__())
        self._cipher = (current_cipher(), current_backend())

    def reinstall_cipher(self) -> None:
        install(*self._cipher)

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(work)

    def close(self) -> None:
        try:
            self.run(self._running.__aexit__(None, None, None))
        finally:
            self.loop.close()

    async def call(
        self,
        method: str,
        path: str,
        headers: Sequence[tuple[bytes, bytes]] = (),
        body: bytes = b"",
        query: str = "",
    ) -> Answer:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"testserver"), *headers],
            "client": CLIENT_ADDRESS,
            "server": ("testserver", 80),
        }
        request_sent = False

        async def receive() -> Message:
            nonlocal request_sent
            if not request_sent:
                request_sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # the client never disconnects
            raise AssertionError("unreachable")

        answer = Answer(0)

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer.status = message["status"]
            elif message["type"] == "http.response.body":
                answer.body += message.get("body", b"")

        await self.context.app(scope, receive, send)
        return answer


@dataclass
class Practice:
    """A practice with an API token (every scope), its clients and one note."""

    auth: Headers
    client_ids: list[str] = field(default_factory=list)
    note: dict[str, Any] = field(default_factory=dict)


def bearer(token: str) -> Headers:
    return [(b"authorization", f"Bearer {token}".encode())]


JSON = [(b"content-type", b"application/json")]


def fake_clients(count: int, seed: int) -> str:
    """A CSV export of `count` clients with varied names (the list sorts by them)."""
    first = ["Ann", "Bea", "Cem", "Dana", "Émile", "Farid", "Greta", "Hiro", "Ines", "Jon"]
    last = ["Lee", "Ångström", "Okafor", "Novak", "Schmidt", "Tanaka", "Reyes", "Kowalski"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["first_name", "last_name", "email", "phone", "medical_history"])
    for n in range(count):
        writer.writerow(
            [
                f"{first[(n + seed) % len(first)]}{n % 97}",
                f"{last[(n * 7 + seed) % len(last)]}{n % 89}",
                f"client{seed}-{n}@example.test",
                f"+1 555 {n % 1000:03d} {n % 10000:04d}",
                "Allergies: none known. " * 4,
            ]
        )
    return out.getvalue()


async def seed_practice(app: InProcessApp, clients: int, seed: int) -> Practice:
    """A practice of `clients` clients (imported through the API, as a practice moving in
    would), an API token, and a note of four 350-byte sections."""
    _, emails = await app.context.workspace_with_users(None, Role.OWNER)
    async with app.context.with_token(emails[0]) as (client, _):
        token = client.headers["Authorization"].removeprefix("Bearer ")
    practice = Practice(bearer(token))
    imported = await app.call(
        "POST",
        "/api/v1/clients/import",
        [*practice.auth, (b"content-type", b"text/csv")],
        fake_clients(clients, seed).encode(),
    )
    assert imported.status == 201, imported.body[:500]
    listed = await app.call("GET", "/api/v1/clients", practice.auth, query="page_size=5")
    assert listed.status == 200, listed.body[:500]
    practice.client_ids = [row["id"] for row in listed.json()["items"]]
    assert listed.json()["total"] == clients
    created = await app.call(
        "POST",
        "/api/v1/sessions",
        practice.auth + JSON,
        json.dumps(
            {
                "client_id": practice.client_ids[0],
                "session_date": "2026-11-02",
                **{section: section[0] * 350 for section in SECTIONS},
            }
        ).encode(),
    )
    assert created.status == 201, created.body[:500]
    practice.note = created.json()
    return practice


SECTIONS = ("subjective", "objective", "assessment", "plan")


def autosaver(app: InProcessApp, practice: Practice) -> Callable[[], Awaitable[Answer]]:
    """Autosave as the editor does: one changed 350-byte section at the version last seen."""
    note_id = practice.note["id"]
    state = {"version": practice.note["version"]}
    texts: Iterator[str] = (f"{n:08d}" + "typed " * 57 for n in range(10**9))

    async def save() -> Answer:
        body = json.dumps({"version": state["version"], "plan": next(texts)}).encode()
        answer = await app.call("PATCH", f"/api/v1/sessions/{note_id}", practice.auth + JSON, body)
        assert answer.status == 200, answer.body[:500]
        state["version"] = answer.json()["version"]
        return answer

    return save


def full_clients(count: int, seed: int) -> str:
    """Like `fake_clients`, with every field of a client filled, as a practice's charts are:
    what a page of whole records had to decrypt (issue 24's benchmark)."""
    first = ["Ann", "Bea", "Cem", "Dana", "Émile", "Farid", "Greta", "Hiro", "Ines", "Jon"]
    last = ["Lee", "Ångström", "Okafor", "Novak", "Schmidt", "Tanaka", "Reyes", "Kowalski"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "first_name",
            "last_name",
            "email",
            "phone",
            "date_of_birth",
            "address",
            "emergency_contact_name",
            "emergency_contact_phone",
            "medical_history",
            "notes",
        ]
    )
    for n in range(count):
        writer.writerow(
            [
                f"{first[(n + seed) % len(first)]}{n % 97}",
                f"{last[(n * 7 + seed) % len(last)]}{n % 89}",
                f"client{seed}-{n}@example.test",
                f"+1 555 {n % 1000:03d} {n % 10000:04d}",
                f"19{50 + n % 50}-0{1 + n % 9}-1{n % 10}",
                f"{n} Example Street, Exampletown EX{n % 90:02d}",
                f"Contact {n}",
                f"+1 555 {(n + 1) % 1000:03d} {(n + 7) % 10000:04d}",
                "Allergies: none known. Prior episodes documented in intake. " * 6,
                "Prefers afternoon appointments; reminders by text. " * 3,
            ]
        )
    return out.getvalue()


async def seed_full_practice(app: InProcessApp, clients: int, seed: int) -> Practice:
    """A practice whose `clients` clients have every field filled, and an API token."""
    _, emails = await app.context.workspace_with_users(None, Role.OWNER)
    async with app.context.with_token(emails[0]) as (client, _):
        token = client.headers["Authorization"].removeprefix("Bearer ")
    practice = Practice(bearer(token))
    imported = await app.call(
        "POST",
        "/api/v1/clients/import",
        [*practice.auth, (b"content-type", b"text/csv")],
        full_clients(clients, seed).encode(),
    )
    assert imported.status == 201, imported.body[:500]
    return practice
