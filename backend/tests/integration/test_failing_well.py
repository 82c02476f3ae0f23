"""Database faults through a loopback proxy that freezes or cuts: JSON 503s with Retry-After,
deadlines that hold against a frozen server, a failed write that stays unstored, honest
readiness. Every wait here is bounded (asyncio.timeout), so a regression fails, never hangs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pwd
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import uvicorn
from sqlalchemy import event
from sqlalchemy.util import await_only

from carevault.api import readiness as health
from carevault.audit import service as audit_service
from carevault.auth.models import Role
from carevault.db.deadlines import Deadlines, remaining
from tests.support.db import NewDatabase, PgServer, database_name
from tests.support.fault_proxy import FaultProxy, fault_proxy
from tests.support.http import ApiContext, running_api
from tests.support.notes import create_note, practice
from tests.support.statements import watching_statements

DEADLINE = 2.0  # CAREVAULT_REQUEST_TIMEOUT_SECONDS for these apps: statements give up in ~1 s
BOUND = 30.0  # no request here may take longer, whatever the code does


@dataclass
class Faulty:
    api: ApiContext
    proxy: FaultProxy
    direct_url: str  # the database itself, not through the proxy

    async def sql(self, query: str, *args: object) -> list[asyncpg.Record]:
        connection = await asyncpg.connect(self.direct_url.replace("+asyncpg", ""), timeout=10)
        try:
            return await connection.fetch(query, *args)
        finally:
            await connection.close()


@pytest.fixture
def readiness_checked_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests change the database between two polls: every `/health/ready` checks
    afresh here (in a server the answer comes from state at most READY_MAX_AGE_SECONDS old,
    tested in tests/integration/test_health_app.py)."""
    monkeypatch.setattr(health, "READY_REFRESH_SECONDS", 0.0)
    monkeypatch.setattr(health, "READY_MAX_AGE_SECONDS", 0.0)


@pytest.fixture
async def faulty(
    new_database: NewDatabase,
    data_dir: Path,
    pg_server: PgServer,
    readiness_checked_per_request: None,
) -> AsyncIterator[Faulty]:
    url = await new_database()
    async with fault_proxy(pg_server) as proxy:
        proxied = proxy.url(url)
        async with running_api(proxied, data_dir, request_timeout_seconds=DEADLINE) as api:
            yield Faulty(api, proxy, url)


@pytest.fixture
async def patient_faulty(
    new_database: NewDatabase,
    data_dir: Path,
    pg_server: PgServer,
    readiness_checked_per_request: None,
) -> AsyncIterator[Faulty]:
    """As `faulty`, with a request deadline a slowed database stays well within even on a
    busy machine (the check's round trips through the slowed proxy, a connection's start)."""
    url = await new_database()
    async with fault_proxy(pg_server) as proxy:
        proxied = proxy.url(url)
        async with running_api(proxied, data_dir, request_timeout_seconds=10) as api:
            yield Faulty(api, proxy, url)


async def _note(faulty: Faulty) -> tuple[str, dict[str, Any]]:
    place = await practice(faulty.api, Role.CLINICIAN)
    async with faulty.api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
    return place.emails[0], note


def _is_503(response: Any, code: str) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["code"] == code
    assert int(response.headers["retry-after"]) > 0


@pytest.fixture
def frozen_server_keeps_idle_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGSTOPped server runs no timers, so idle_in_transaction_session_timeout cannot end
    the frozen session before it wakes and reads the queued COMMIT. The proxy's server is
    not stopped, so that timeout is lengthened here to leave the commit fence alone on guard."""
    monkeypatch.setattr(Deadlines, "idle_in_transaction", property(lambda self: 120.0))


async def _assert_not_stored_once_ended(
    faulty: Faulty, backend_pid: int, note: dict[str, Any]
) -> None:
    """Wait (bounded) until the frozen backend has processed what it was sent and ended,
    then check the note is as it was: a write reported as failed was not stored late."""
    async with asyncio.timeout(BOUND):
        # Another process's state: polled, no event to wait on.
        while await faulty.sql("SELECT 1 FROM pg_stat_activity WHERE pid = $1", backend_pid):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    stored = await faulty.sql("SELECT version FROM sessions WHERE id = $1", uuid.UUID(note["id"]))
    assert stored[0]["version"] == note["version"], "a write reported as failed was stored"


async def test_a_write_whose_commit_timed_out_is_never_stored_afterwards(
    frozen_server_keeps_idle_sessions: None, faulty: Faulty
) -> None:
    email, note = await _note(faulty)
    engine = faulty.api.app.state.carevault.engine
    frozen_backend: list[int] = []

    def freeze_before_commit(connection: Any) -> None:
        # After the app set its commit fence, before COMMIT goes out: the server freezes.
        frozen_backend.append(connection.exec_driver_sql("SELECT pg_backend_pid()").scalar())
        faulty.proxy.freeze()

    async with faulty.api.signed_in(email) as client:
        event.listen(engine.sync_engine, "commit", freeze_before_commit)
        try:
            async with asyncio.timeout(BOUND):
                # Finalizing is a transaction of several statements, then COMMIT.
                finalized = await client.post(
                    f"/sessions/{note['id']}/finalize",
                    json={"version": note["version"], "attestation_version": 1},
                )
        finally:
            event.remove(engine.sync_engine, "commit", freeze_before_commit)
            faulty.proxy.thaw()  # the queued COMMIT now reaches the server, late
    assert frozen_backend, "the write never reached its COMMIT"
    _is_503(finalized, "database_timeout")
    await _assert_not_stored_once_ended(faulty, frozen_backend[0], note)
    async with faulty.api.signed_in(email) as client:
        again = await client.get(f"/sessions/{note['id']}")
    assert again.status_code == 200 and again.json()["status"] == "draft"


async def test_a_write_sent_alone_that_timed_out_is_never_stored_afterwards(
    frozen_server_keeps_idle_sessions: None, faulty: Faulty
) -> None:
    """An autosave is one statement that commits by itself (carevault.db.alone): the
    commit fence travels inside it, so when it reaches a database that wakes up after the
    client gave up, its commit is refused too."""
    email, note = await _note(faulty)
    engine = faulty.api.app.state.carevault.engine
    frozen_backend: list[int] = []

    def freeze_before_the_save(statement: str, backend_pid: Callable[[], int]) -> None:
        flat = " ".join(statement.split())
        if frozen_backend or not flat.startswith("WITH audited_rows AS (UPDATE sessions"):
            return
        frozen_backend.append(backend_pid())
        faulty.proxy.freeze()

    async with faulty.api.signed_in(email) as client:
        try:
            with watching_statements(engine, freeze_before_the_save):
                async with asyncio.timeout(BOUND):
                    autosave = await client.patch(
                        f"/sessions/{note['id']}",
                        json={"version": note["version"], "subjective": "typed during the freeze"},
                    )
        finally:
            faulty.proxy.thaw()  # the queued statement now reaches the server, late
    assert frozen_backend, "the autosave never reached its statement"
    _is_503(autosave, "database_timeout")
    await _assert_not_stored_once_ended(faulty, frozen_backend[0], note)
    events = await faulty.sql(
        "SELECT count(*) AS n FROM audit_events WHERE action = 'session.update'"
    )
    assert events[0]["n"] == 0


async def test_reads_against_a_frozen_database_are_503_database_timeout(faulty: Faulty) -> None:
    email, note = await _note(faulty)
    async with faulty.api.signed_in(email) as client:
        faulty.proxy.freeze()
        try:
            async with asyncio.timeout(BOUND):
                read = await client.get(f"/sessions/{note['id']}")
        finally:
            faulty.proxy.thaw()
        _is_503(read, "database_timeout")
        async with asyncio.timeout(BOUND):
            after = await client.get(f"/sessions/{note['id']}")
    assert after.status_code == 200


async def test_a_write_sent_alone_carries_the_commit_fence(
    faulty: Faulty, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above cannot tell the fence from asyncpg's cancel request (both stop the
    late statement); this one can. A fence already past when the statement commits, as it
    is for a statement that reaches the server late, refuses the commit: the write and its
    event are not stored, and the client is told so."""
    email, note = await _note(faulty)
    monkeypatch.setattr(audit_service, "alone_fence", lambda engine: f"{time.time() - 1:.3f}")
    async with faulty.api.signed_in(email) as client:
        autosave = await client.patch(
            f"/sessions/{note['id']}", json={"version": note["version"], "plan": "too late"}
        )
    _is_503(autosave, "database_timeout")
    stored = await faulty.sql("SELECT version FROM sessions WHERE id = $1", uuid.UUID(note["id"]))
    assert stored[0]["version"] == note["version"], "a write past its fence was stored"
    events = await faulty.sql(
        "SELECT count(*) AS n FROM audit_events WHERE action = 'session.update'"
    )
    assert events[0]["n"] == 0


async def test_a_statement_started_just_before_the_deadline_is_cut_at_the_deadline(
    frozen_server_keeps_idle_sessions: None, faulty: Faulty
) -> None:
    """The deadline bounds the whole request, not only when statements may start: a write
    whose last statements start 0.15 s before the deadline, against a database that then
    freezes, is answered 503 at the deadline (not after another command timeout), and the
    write is not stored when the database wakes up."""
    email, note = await _note(faulty)
    engine = faulty.api.app.state.carevault.engine
    sent_at: list[float] = []

    def stall_then_freeze(connection: Any, cursor: Any, statement: str, *_: Any) -> None:
        left = remaining()
        if sent_at or left is None or not statement.startswith("UPDATE sessions SET status"):
            return
        # Inside SQLAlchemy's greenlet: wait on the event loop until just before the
        # deadline, then the database freezes with this statement on its way.
        await_only(asyncio.sleep(max(0.0, left - 0.15)))
        sent_at.append(time.monotonic())
        faulty.proxy.freeze()

    async with faulty.api.signed_in(email) as client:
        event.listen(engine.sync_engine, "before_cursor_execute", stall_then_freeze)
        try:
            answered_at: list[float] = []
            async with asyncio.timeout(BOUND):
                started = time.monotonic()
                finalized = await _timed_finalize(client, note, answered_at)
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", stall_then_freeze)
            faulty.proxy.thaw()
    assert sent_at, "the write never reached its UPDATE"
    _is_503(finalized, "database_timeout")
    # The old code answered only when the command timeout (0.6 x the deadline) ran out.
    assert answered_at[0] - started < DEADLINE + 0.3, answered_at[0] - started
    async with asyncio.timeout(BOUND):
        while await faulty.sql(  # noqa: ASYNC110 (another process's state: polled)
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
            "AND state = 'idle in transaction'"
        ):
            await asyncio.sleep(0.05)
    stored = await faulty.sql("SELECT version FROM sessions WHERE id = $1", uuid.UUID(note["id"]))
    assert stored[0]["version"] == note["version"], "a write reported as failed was stored"


async def _timed_finalize(
    client: httpx.AsyncClient, note: dict[str, Any], answered_at: list[float]
) -> httpx.Response:
    """PATCH the note, noting when the response started (not when the request's cleanup
    ended, which the in-process transport also waits for)."""
    transport = client._transport
    assert isinstance(transport, httpx.ASGITransport)
    app = transport.app

    async def timed(scope: Any, receive: Any, send: Any) -> None:
        async def noting(message: Any) -> None:
            if message["type"] == "http.response.start":
                answered_at.append(time.monotonic())
            await send(message)

        await app(scope, receive, noting)

    transport.app = timed
    try:
        # Finalizing: a transaction of several statements (an autosave is one, sent alone).
        return await client.post(
            f"/sessions/{note['id']}/finalize",
            json={"version": note["version"], "attestation_version": 1},
        )
    finally:
        transport.app = app


async def test_a_stopped_database_is_503_database_unavailable_logged_once(
    faulty: Faulty, caplog: pytest.LogCaptureFixture
) -> None:
    email, note = await _note(faulty)
    caplog.set_level(logging.INFO)
    async with faulty.api.signed_in(email) as client:
        faulty.proxy.cut()
        try:
            answers = []
            for _ in range(5):
                async with asyncio.timeout(BOUND):
                    answers.append(await client.get(f"/sessions/{note['id']}"))
        finally:
            faulty.proxy.restore()
        for answer in answers:
            _is_503(answer, "database_unavailable")
        async with asyncio.timeout(BOUND):
            after = await client.get(f"/sessions/{note['id']}")
    assert after.status_code == 200
    incidents = [r for r in caplog.records if r.name == "carevault.failures"]
    assert len(incidents) == 1 and incidents[0].levelno == logging.WARNING
    assert all(r.exc_info is None for r in caplog.records if r.levelno >= logging.WARNING)
    assert "Traceback" not in caplog.text


async def _details(faulty: Faulty) -> dict[str, Any]:
    """The detailed readiness report: owners read it at /api/v1/system/readiness, which needs
    a working database to sign in, so these tests take it from the service directly."""
    report = await health.readiness(faulty.api.app.state.carevault)
    details: dict[str, Any] = report.model_dump(mode="json")
    return details


async def test_a_full_disk_is_503_storage_full_and_readiness_says_so(faulty: Faulty) -> None:
    email, note = await _note(faulty)
    # What PostgreSQL answers when a table cannot grow: SQLSTATE 53100 on the audit insert.
    await faulty.sql(
        "CREATE FUNCTION fake_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'could not extend file' USING ERRCODE = '53100'; END $$"
    )
    await faulty.sql(
        "CREATE TRIGGER fake_disk_full BEFORE INSERT ON audit_events "
        "FOR EACH ROW EXECUTE FUNCTION fake_disk_full()"
    )
    async with faulty.api.client() as client:
        login = await client.post("/auth/login", json={"email": email, "password": "x" * 12})
        ready = await client.get("http://testserver/health/ready")
    details = await _details(faulty)
    _is_503(login, "storage_full")
    assert ready.status_code == 503
    assert details["status"] == "unavailable" and "storage_full" in details["reasons"]
    assert details["database"]["writable"] is True  # the probe alone would have said ready
    await faulty.sql("DROP TRIGGER fake_disk_full ON audit_events")
    async with faulty.api.signed_in(email) as client:
        assert (await client.get(f"/sessions/{note['id']}")).status_code == 200


@dataclass
class SmallDisk:
    tablespace: str
    mount: Path

    def fill(self) -> None:
        """Take every free block with one preallocated file (as a runaway log would)."""
        stats = os.statvfs(self.mount)
        descriptor = os.open(self.mount / "filler", os.O_CREAT | os.O_WRONLY, 0o600)
        try:
            os.posix_fallocate(descriptor, 0, stats.f_bavail * stats.f_frsize)
        finally:
            os.close(descriptor)

    def free(self) -> None:
        (self.mount / "filler").unlink(missing_ok=True)


def _mount_small_disk(data_directory: str) -> tuple[Path, Path] | str:
    """(mount point, empty directory for a tablespace), or why this machine cannot."""
    if os.geteuid() != 0 or not Path(data_directory).is_dir():
        return "needs root and the test PostgreSQL on this machine, to mount a tmpfs"
    owner = pwd.getpwnam("postgres")
    mount = Path(tempfile.mkdtemp(prefix="carevault-small-disk-"))
    options = f"size=4m,mode=0700,uid={owner.pw_uid}"
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", mount],
        capture_output=True,
        timeout=30,
        check=False,
    )
    if mounted.returncode != 0:
        mount.rmdir()
        return "this machine does not allow mounting a tmpfs"
    space = mount / "tablespace"
    space.mkdir()
    os.chown(space, owner.pw_uid, owner.pw_gid)
    return mount, space


def _unmount(mount: Path) -> None:
    subprocess.run(["umount", mount], timeout=30, check=False)
    mount.rmdir()


@pytest.fixture
async def small_disk(faulty: Faulty) -> AsyncIterator[SmallDisk]:
    """A 4 MB tmpfs holding a tablespace of the test server, with audit_events and the space
    probe's table moved onto it: a real full disk, for this test's database only."""
    data_directory = (await faulty.sql("SHOW data_directory"))[0][0]
    mounted = await asyncio.to_thread(_mount_small_disk, data_directory)
    if isinstance(mounted, str):
        pytest.skip(mounted)
    mount, space = mounted
    disk = SmallDisk(f"carevault_small_{uuid.uuid4().hex[:12]}", mount)
    moved = ("audit_events", "health_space_probe")
    try:
        await faulty.sql(f"CREATE TABLESPACE {disk.tablespace} LOCATION '{space}'")
        for table in moved:
            await faulty.sql(f"ALTER TABLE {table} SET TABLESPACE {disk.tablespace}")
        yield disk
    finally:
        disk.free()
        for table in moved:
            with contextlib.suppress(Exception):
                await faulty.sql(f"ALTER TABLE {table} SET TABLESPACE pg_default")
        with contextlib.suppress(Exception):
            await faulty.sql(f"DROP TABLESPACE IF EXISTS {disk.tablespace}")
        await asyncio.to_thread(_unmount, mount)


async def test_readiness_is_unavailable_when_the_disk_is_full_before_any_request_fails(
    faulty: Faulty, small_disk: SmallDisk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A really full disk under audit_events: this process never met storage_full itself
    (another worker, or nobody yet, did), and a one-row upsert still commits into a page
    that exists. The probe must allocate a block, so readiness tells the truth anyway."""
    monkeypatch.setattr(health, "WRITE_PROBE_INTERVAL_SECONDS", 0.0)
    async with faulty.api.client() as client, asyncio.timeout(BOUND):
        before = await client.get("http://testserver/health/ready")
        small_disk.fill()
        full = await client.get("http://testserver/health/ready")
        details = await _details(faulty)
        # What the old probe did still succeeds: it would have reported ready.
        await faulty.sql(
            "INSERT INTO health_probes (process, probed_at) VALUES ('test', now()) "
            "ON CONFLICT (process) DO UPDATE SET probed_at = excluded.probed_at"
        )
        small_disk.free()
        after = await client.get("http://testserver/health/ready")
    assert before.status_code == 200, before.text
    assert not faulty.api.app.state.carevault.incidents.last_seen  # no request failed here
    assert full.status_code == 503
    assert details["status"] == "unavailable" and "storage_full" in details["reasons"]
    assert details["database"]["writable"] is False
    assert "53100" in details["database"]["error"]
    assert after.status_code == 200, after.text


async def test_readiness_answers_within_its_limit_against_a_frozen_database(
    faulty: Faulty,
) -> None:
    faulty.proxy.freeze()
    try:
        async with (
            faulty.api.client() as client,
            asyncio.timeout(health.DATABASE_CHECK_TIMEOUT_SECONDS + 1.5),
        ):
            ready = await client.get("http://testserver/health/ready")
        async with asyncio.timeout(health.DATABASE_CHECK_TIMEOUT_SECONDS + 1.5):
            details = await _details(faulty)
    finally:
        faulty.proxy.thaw()
    assert ready.status_code == 503
    assert details["reasons"] == ["database_timeout"]


async def test_a_slow_database_is_degraded_not_unavailable(
    patient_faulty: Faulty, monkeypatch: pytest.MonkeyPatch
) -> None:
    faulty = patient_faulty
    # Slow, yet well within this app's 10 s request deadline and the check's 3 s limit. The
    # check makes few round trips since readiness keeps its schema and pgcrypto answers (a
    # round trip here is 40 ms), so the threshold is lowered to match.
    monkeypatch.setattr(health, "SLOW_DATABASE_SECONDS", 0.05)
    faulty.proxy.delay = 0.02  # per message each way: the check's round trips add up
    try:
        async with faulty.api.client() as client, asyncio.timeout(BOUND):
            ready = await client.get("http://testserver/health/ready")
            body = await _details(faulty)
    finally:
        faulty.proxy.delay = 0.0
    assert ready.status_code == 200, ready.text
    assert body["status"] == "degraded" and body["reasons"] == ["database_slow"]
    assert body["database"]["latency_ms"] > health.SLOW_DATABASE_SECONDS * 1000


async def test_readiness_is_unavailable_when_the_database_cannot_commit_a_write(
    faulty: Faulty,
) -> None:
    name = database_name(faulty.direct_url)
    await faulty.sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    faulty.proxy.cut()  # pooled sessions end; new ones start read-only
    faulty.proxy.restore()
    async with faulty.api.client() as client, asyncio.timeout(BOUND):
        ready = await client.get("http://testserver/health/ready")
        body = await _details(faulty)
    assert ready.status_code == 503
    assert body["database"]["reachable"] is True and body["database"]["writable"] is False
    assert "database_not_writable" in body["reasons"]
    assert "25006" in body["database"]["error"]  # read_only_sql_transaction


async def test_a_503_leaves_the_keep_alive_connection_usable(faulty: Faulty) -> None:
    """Over real HTTP/1.1: two requests on one socket, the first during an outage."""
    config = uvicorn.Config(
        faulty.api.app, host="127.0.0.1", port=0, lifespan="off", log_config=None
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(BOUND):
            while not server.started:  # noqa: ASYNC110 (uvicorn offers no event for it)
                await asyncio.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        body = b'{"email": "nobody@example.org", "password": "secret"}'
        request = (
            b"POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        faulty.proxy.cut()
        try:
            async with asyncio.timeout(BOUND):
                writer.write(request)
                first = await _read_response(reader)
        finally:
            faulty.proxy.restore()
        async with asyncio.timeout(BOUND):
            writer.write(request)
            second = await _read_response(reader)
        writer.close()
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, BOUND)
    assert first[0].startswith(b"HTTP/1.1 503")
    assert b"retry-after:" in first[0].lower() and b"database_unavailable" in first[1]
    assert b"connection: close" not in first[0].lower()
    assert second[0].startswith(b"HTTP/1.1 401"), second  # unknown user, answered normally


async def _read_response(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    return head, await reader.readexactly(length)
