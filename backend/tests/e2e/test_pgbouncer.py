"""CareVault behind Debian's PgBouncer 1.18 in transaction mode with its default settings
(CAREVAULT_DATABASE_POOLER=transaction, carevault.db.pooler): `carevault serve` with two
workers and the audit sealer, a user, the API (sign in, clients, notes, lists, search), a
bulk import, `audit seal`, `checkpoint` and `verify`, and `reencrypt`, all through the pooler,
with no prepared-statement or session-state error anywhere, no named statement left on any
server connection, and a request deadline that still fires. Loopback only, about half a
minute; skipped without pgbouncer, except in CI (tests.support.pgbouncer)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from carevault.db.deadlines import Deadlines
from carevault.db.engine import create_engine
from carevault.db.pooler import Pooler
from tests.support.db import PgServer, admin_execute
from tests.support.pgbouncer import pgbouncer, require_pgbouncer, through
from tests.support.processes import carevault_env, free_port

PASSWORD = "pgbouncer-owner-pw"
EMAIL = "owner@pooled.example"
WORKSPACE = "Pooled Clinic"
# What transaction pooling breaks, as PostgreSQL, asyncpg or PgBouncer words it.
POOLING_ERRORS = (
    "prepared statement",
    "unsupported startup parameter",
    "unnamed prepared statement",
    "Traceback",
    "ProtocolViolation",
    "InternalServerError",
)


@pytest.fixture
def pooled_database(pg_server: PgServer, template_database: str) -> Iterator[str]:
    require_pgbouncer()
    name = f"cv_pooled_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        yield name
    finally:
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def run(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "carevault", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"carevault {' '.join(args)}: {output[-3000:]}"
    for error in POOLING_ERRORS:
        assert error not in output, f"carevault {' '.join(args)}: {output[-3000:]}"
    return output


@contextmanager
def serving(env: dict[str, str], log_path: Path) -> Iterator[str]:
    port = free_port()
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "carevault", "serve", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/health/ready", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert server.poll() is None, log_path.read_text()[-3000:]
                assert time.monotonic() < deadline, log_path.read_text()[-3000:]
                time.sleep(0.2)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)


def exercise_api(base: str) -> None:
    """Sign in, then clients, notes, lists and search, several requests at a time, so the
    pooler hands each worker's transactions to different server connections."""

    async def flow() -> None:
        async with httpx.AsyncClient(base_url=f"{base}/api/v1", timeout=30) as api:
            login = await api.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
            assert login.status_code == 200, login.text
            api.headers["X-CSRF-Token"] = login.json()["csrf_token"]

            async def one(n: int) -> None:
                body = {"first_name": f"Pooled{n}", "last_name": "Example"}
                created = await api.post("/clients", json=body)
                assert created.status_code == 201, created.text
                client_id = created.json()["id"]
                note = {
                    "client_id": client_id,
                    "session_date": "2025-01-15",
                    "duration_minutes": 50,
                    "subjective": f"Pooled note {n}.",
                }
                written = await api.post("/sessions", json=note)
                assert written.status_code == 201, written.text
                read = await api.get(f"/sessions/{written.json()['id']}")
                assert read.status_code == 200, read.text
                assert read.json()["subjective"] == f"Pooled note {n}."

            await asyncio.gather(*(one(n) for n in range(12)))
            listed = await api.get("/clients", params={"page_size": 100})
            assert listed.status_code == 200, listed.text
            names = {item["first_name"] for item in listed.json()["items"]}
            assert {f"Pooled{n}" for n in range(12)} <= names
            found = await api.post("/clients/search", json={"q": "Pooled7"})
            assert found.status_code == 200, found.text
            assert [item["first_name"] for item in found.json()["items"]] == ["Pooled7"]
            notes = await api.get("/sessions")
            assert notes.status_code == 200, notes.text
            assert len(notes.json()["items"]) == 12
            ready = await api.get("/system/readiness")
            assert ready.status_code == 200, ready.text
            assert ready.json()["status"] in {"ready", "degraded"}, ready.json()

    asyncio.run(flow())


async def named_statements_on_server_connections(pg_server: PgServer, url: str, name: str) -> int:
    """Prepared statements left on PgBouncer's server connections: as many transactions at
    once as the server has connections for this database, so each lands on its own."""
    admin = await asyncpg.connect(pg_server.dsn(name))
    try:
        servers = await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            name,
        )
    finally:
        await admin.close()
    engine = create_engine(url, pool_size=max(1, servers), pooler=Pooler.TRANSACTION)
    try:

        async def look() -> int:
            async with engine.begin() as connection:
                await connection.execute(text("SELECT pg_sleep(0.3)"))
                found = await connection.scalar(text("SELECT count(*) FROM pg_prepared_statements"))
                return int(found or 0)

        return sum(await asyncio.gather(*(look() for _ in range(max(1, servers)))))
    finally:
        await engine.dispose()


def test_everything_runs_through_pgbouncer_in_transaction_mode(
    pg_server: PgServer, pooled_database: str, tmp_path: Path
) -> None:
    with pgbouncer(pg_server) as (port, bouncer_log):
        url = through(pg_server, port, pooled_database)
        env = carevault_env(url, tmp_path / "data")
        env["CAREVAULT_DATABASE_POOLER"] = "transaction"
        env["CAREVAULT_AUDIT_SEAL_INTERVAL_SECONDS"] = "0.5"
        # Notices LISTEN on PostgreSQL itself: PgBouncer cannot carry LISTEN.
        env["CAREVAULT_NOTIFICATIONS"] = "true"
        env["CAREVAULT_NOTIFY_DATABASE_URL"] = pg_server.url(pooled_database)
        create = ["users", "create", "--workspace", WORKSPACE, "--email", EMAIL, "--role", "owner"]
        run(env, *create, stdin=PASSWORD + "\n")
        server_log = tmp_path / "serve.log"
        with serving(env, server_log) as base:
            exercise_api(base)
            csv = tmp_path / "clients.csv"
            rows = "".join(f"Imported{n},Example,imported{n}@pooled.example\n" for n in range(50))
            csv.write_text("first_name,last_name,email\n" + rows)
            run(env, "import", "clients", str(csv), "--workspace", WORKSPACE)
            run(env, "audit", "seal")  # waits for the running sealer's round
            run(env, "audit", "checkpoint")
            run(env, "audit", "verify")
            run(env, "reencrypt", "--batch-size", "7")
        log = server_log.read_text()
        for error in POOLING_ERRORS:
            assert error not in log, log[-3000:]
        assert "unsupported startup parameter" not in bouncer_log.read_text()
        leftover = asyncio.run(
            named_statements_on_server_connections(pg_server, url, pooled_database)
        )
        assert leftover == 0

    async def sealed() -> tuple[int, int]:
        connection = await asyncpg.connect(pg_server.dsn(pooled_database))
        try:
            events = await connection.fetchval("SELECT count(*) FROM audit_events")
            seals = await connection.fetchval("SELECT count(*) FROM audit_seals")
            return int(events), int(seals)
        finally:
            await connection.close()

    events, seals = asyncio.run(sealed())
    assert events > 12 and seals > 0


def test_a_deadline_still_fires_through_pgbouncer(
    pg_server: PgServer, pooled_database: str
) -> None:
    """The deadlines travel with each BEGIN (SET LOCAL), not as startup parameters: a
    statement past its share of the request deadline is cancelled by the server, and a
    transaction that follows on the same server connection has the deadline too."""

    async def check() -> tuple[str, str | None, str]:
        with pgbouncer(pg_server) as (port, _):
            url = through(pg_server, port, pooled_database)
            engine = create_engine(
                url, pool_size=1, deadlines=Deadlines(request=1.0), pooler=Pooler.TRANSACTION
            )
            try:
                async with engine.begin() as connection:
                    timeout = str(await connection.scalar(text("SHOW statement_timeout")))
                state = None
                try:
                    async with engine.begin() as connection:
                        await connection.execute(text("SELECT pg_sleep(0.55)"))
                except DBAPIError as exc:
                    state = getattr(exc.orig, "sqlstate", None)
                async with engine.begin() as connection:
                    again = str(await connection.scalar(text("SHOW statement_timeout")))
            finally:
                await engine.dispose()
            return timeout, state, again

    timeout, state, again = asyncio.run(check())
    assert timeout == "500ms"
    assert state == "57014"  # query_canceled: statement_timeout fired
    assert again == "500ms"


def test_without_the_setting_pgbouncer_refuses_the_deadlines_at_startup(
    pg_server: PgServer, pooled_database: str
) -> None:
    """Why the setting exists: the old way (startup parameters) fails behind PgBouncer."""

    async def check() -> str:
        with pgbouncer(pg_server) as (port, _):
            url = through(pg_server, port, pooled_database)
            engine = create_engine(url, deadlines=Deadlines(request=1.0), pooler=Pooler.NONE)
            try:
                async with engine.connect() as connection:
                    await connection.scalar(text("SELECT 1"))
            except DBAPIError as exc:
                return str(exc.orig)
            finally:
                await engine.dispose()
            return "connected"

    assert "unsupported startup parameter" in asyncio.run(check())


def test_serve_without_the_setting_says_what_to_set(
    pg_server: PgServer, pooled_database: str, tmp_path: Path
) -> None:
    """Behind PgBouncer without CAREVAULT_DATABASE_POOLER, startup fails with a message naming
    the setting (PgBouncer answers as a server does: its refusal is what names it)."""
    with pgbouncer(pg_server) as (port, _):
        env = carevault_env(through(pg_server, port, pooled_database), tmp_path / "data")
        done = subprocess.run(
            [sys.executable, "-m", "carevault", "serve", "--port", str(free_port())],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode != 0
    assert "CAREVAULT_DATABASE_POOLER=transaction" in done.stdout + done.stderr
