"""A real PostgreSQL stopped with `pg_ctl stop -m fast` under 10 API-token clients, each on
one keep-alive HTTP/1.1 connection to a real uvicorn: every answer is a success or the
failure vocabulary's JSON 503 with Retry-After (never a 500, never a dropped connection),
and once the database is back the same connections serve again.

The server is the test's own (tools.chaos.postgres: initdb in a temporary directory, on a
free loopback port), since the shared test server must not be stopped. Every wait and loop
is bounded, so a regression fails, never hangs."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import uvicorn

from carevault.auth.models import Role
from carevault.auth.scopes import ROLE_SCOPES
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from tests.support.http import ApiContext, running_api
from tests.support.notes import create_note, practice

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.chaos.postgres import OwnPostgres  # noqa: E402
from tools.loadtest.processes import free_port  # noqa: E402

CLIENTS = 10
BOUND = 60.0  # the whole exchange, whatever the code does
DATABASE = "carevault_fast_stop"
VOCABULARY = {"database_unavailable", "database_timeout"}
MAX_TURNS = 2000  # per client: the traffic stops by itself even if the test's logic does not
PAUSE_SECONDS = 0.02  # between one client's requests (the machine is shared)


@pytest.fixture
async def own_postgres() -> AsyncIterator[OwnPostgres]:
    # Not pytest's tmp_path: PostgreSQL runs as its own user when this runs as root, and
    # pytest closes its base directory to other users.
    with tempfile.TemporaryDirectory(prefix="carevault-fast-stop-") as directory:
        root = Path(directory)
        await asyncio.to_thread(root.chmod, 0o755)
        server = OwnPostgres(root / "postgres", free_port())
        await asyncio.to_thread(server.init)
        await asyncio.to_thread(server.start)
        try:
            connection = await asyncpg.connect(server.admin_dsn, timeout=30)
            try:
                await connection.execute(f'CREATE DATABASE "{DATABASE}"')
            finally:
                await connection.close()
            engine = create_engine(server.url(DATABASE), pool_size=1)
            try:
                await upgrade_async(engine)
            finally:
                await engine.dispose()
            yield server
        finally:
            await asyncio.to_thread(server.stop, "immediate")


@dataclass
class TokenClient:
    http: httpx.AsyncClient
    note_id: str
    version: int
    answers: list[httpx.Response] = field(default_factory=list)
    # The connection (httpcore's stream, held so it is not reused) each answer came on.
    connections: set[Any] = field(default_factory=set)

    async def send(self, turn: int) -> httpx.Response:
        if turn % 2:
            answer = await self.http.get(f"/api/v1/sessions/{self.note_id}")
        else:
            answer = await self.http.patch(
                f"/api/v1/sessions/{self.note_id}",
                json={"version": self.version, "subjective": f"autosave {turn}"},
            )
        if answer.status_code == 200:
            self.version = answer.json()["version"]
        self.answers.append(answer)
        self.connections.add(answer.extensions["network_stream"])
        return answer


async def _token_clients(api: ApiContext, base_url: str) -> list[TokenClient]:
    """One clinician's practice; a note and an API token for each client."""
    place = await practice(api, Role.CLINICIAN)
    clients = []
    async with api.signed_in(place.emails[0]) as signed_in:
        for _ in range(CLIENTS):
            note = await create_note(signed_in, place.client_ids[0])
            created = await signed_in.post(
                "/auth/tokens",
                json={"name": "fast stop", "scopes": sorted(ROLE_SCOPES[Role.CLINICIAN])},
            )
            assert created.status_code == 201, created.text
            http = httpx.AsyncClient(
                base_url=base_url,
                headers={"Authorization": f"Bearer {created.json()['token']}"},
                # One connection per client, kept alive: one closed by the server would be
                # replaced by a new one.
                limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
                timeout=BOUND,
            )
            clients.append(TokenClient(http, note["id"], note["version"]))
    return clients


@asynccontextmanager
async def serving(api: ApiContext) -> AsyncIterator[str]:
    """The app behind a real uvicorn on loopback (HTTP/1.1 keep-alive); its base URL."""
    config = uvicorn.Config(api.app, host="127.0.0.1", port=0, lifespan="off", log_config=None)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(BOUND):
            while not server.started:  # noqa: ASYNC110 (uvicorn offers no event for it)
                await asyncio.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, BOUND)


async def _traffic(client: TokenClient, done: asyncio.Event) -> None:
    turn = 0
    while not done.is_set() and turn < MAX_TURNS:
        turn += 1
        answer = await client.send(turn)
        if answer.status_code == 409:  # an autosave the client was not told of: none expected
            current = await client.http.get(f"/api/v1/sessions/{client.note_id}")
            if current.status_code == 200:
                client.version = current.json()["version"]
        await asyncio.sleep(PAUSE_SECONDS)


async def _until(condition: Callable[[], bool], traffic: list[asyncio.Task[None]]) -> None:
    """Wait (bounded by the caller) until `condition` holds, or a client's traffic ended
    (it failed: the caller's gather says how)."""
    # Answers arrive on the traffic's tasks: polled.
    while not condition() and not any(task.done() for task in traffic):  # noqa: ASYNC110
        await asyncio.sleep(0.01)


def _offending(answer: httpx.Response) -> str | None:
    """Why an answer is neither a success nor the failure vocabulary's JSON 503."""
    if answer.status_code in (200, 409):
        return None
    if answer.status_code != 503:
        return f"{answer.status_code} {answer.headers.get('content-type')} {answer.text[:200]!r}"
    if answer.headers.get("content-type") != "application/json":
        return f"503 as {answer.headers.get('content-type')}: {answer.text[:200]!r}"
    if answer.json()["error"]["code"] not in VOCABULARY:
        return f"503 {answer.json()['error']['code']}"
    if int(answer.headers.get("retry-after", "0")) <= 0:
        return "503 without Retry-After"
    return None


async def test_a_fast_stop_under_token_clients_answers_json_503s_on_kept_connections(
    own_postgres: OwnPostgres, data_dir: Path
) -> None:
    url = own_postgres.url(DATABASE)
    async with (
        running_api(url, data_dir, request_timeout_seconds=5) as api,
        serving(api) as base_url,
    ):
        clients = await _token_clients(api, base_url)
        done = asyncio.Event()
        traffic: list[asyncio.Task[None]] = []
        try:
            async with asyncio.timeout(BOUND):
                for client in clients:
                    assert (await client.send(1)).status_code == 200
                traffic = [asyncio.create_task(_traffic(c, done)) for c in clients]
                await _until(lambda: all(len(c.answers) >= 3 for c in clients), traffic)
                # Stopped while every client has a request in flight or about to be.
                await asyncio.to_thread(own_postgres.stop, "fast")
                stopped = [len(c.answers) for c in clients]
                await _until(
                    lambda: all(
                        any(a.status_code == 503 for a in c.answers[mark:])
                        for c, mark in zip(clients, stopped, strict=True)
                    ),
                    traffic,
                )
                await asyncio.to_thread(own_postgres.start)
                back = [len(c.answers) for c in clients]
                await _until(
                    lambda: all(
                        any(a.status_code == 200 for a in c.answers[mark:])
                        for c, mark in zip(clients, back, strict=True)
                    ),
                    traffic,
                )
                done.set()
                await asyncio.gather(*traffic)  # a dropped connection would raise here
        finally:
            done.set()
            for task in traffic:
                task.cancel()
            await asyncio.gather(*traffic, return_exceptions=True)
            for client in clients:
                await client.http.aclose()
    answers = [a for c in clients for a in c.answers]
    offending = [why for a in answers if (why := _offending(a)) is not None]
    assert not offending, offending
    assert sum(a.status_code == 503 for a in answers) >= CLIENTS
    # Each client's one connection served every answer, before, during and after the stop.
    assert [len(c.connections) for c in clients] == [1] * CLIENTS
