"""The running app's health endpoints, over ASGI with the real lifespan."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event, make_url

from carevault import runtime
from carevault.api import app as app_module
from carevault.api import readiness as health
from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.config import Settings
from carevault.crypto.aws import SecretsManagerProvider
from carevault.db.migrate import current_revision, head_revision
from carevault.runtime import StartupError, start_key_ring
from tests.support.db import NewDatabase, PgServer, admin_execute, embedded_server
from tests.support.http import ApiContext
from tests.support.processes import wait_until

# Set by a test in its own task: statements sent with it set come from that test's requests.
POLLING: contextvars.ContextVar[bool] = contextvars.ContextVar("polling", default=False)


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def dev_settings(data_dir: Path, **overrides: object) -> Settings:
    return Settings(data_dir=data_dir, **overrides)  # type: ignore[arg-type]


async def owner_readiness(app: FastAPI, url: str) -> httpx.Response:
    """The detailed report, as a signed-in owner sees it (the public one is status only)."""
    context = ApiContext(app, url, app.state.carevault.settings)
    _, (owner,) = await context.workspace_with_users(None, Role.OWNER)
    async with context.signed_in(owner) as client:
        return await client.get("/system/readiness")


async def test_liveness_and_readiness(new_database: NewDatabase, data_dir: Path) -> None:
    url = await new_database()
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app) as client:
        assert (await client.get("/health")).json() == {"status": "ok"}
        public = await client.get("/health/ready")
        response = await owner_readiness(app, url)
    assert public.status_code == 200 and public.json() == {"status": "ready"}
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    head = head_revision()
    assert head is not None
    database = body["database"]
    assert {k: database[k] for k in ("reachable", "schema_revision", "expected_revision")} == {
        "reachable": True,
        "schema_revision": head,
        "expected_revision": head,
    }
    assert database["error"] is None and database["writable"] is True
    assert database["recent_failure"] is None and body["reasons"] == []
    ring = body["key_ring"]
    assert ring["loaded"] is True and ring["active_version"] == 1
    assert ring["source"].startswith("local file")
    assert 0 <= ring["active_key_age_seconds"] < 3600
    assert ring["last_refresh_error"] is None
    assert isinstance(body["pgcrypto"]["available"], bool)
    assert body["phi_backend"] == "aesgcm"
    assert (data_dir / "keyring.json").exists()


async def test_readiness_shows_a_secrets_manager_outage_and_keeps_serving(
    new_database: NewDatabase, data_dir: Path
) -> None:
    from moto.server import ThreadedMotoServer  # moto takes 0.4 s to import: only here

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    provider = SecretsManagerProvider(
        "carevault/health", region="us-east-1", endpoint_url=f"http://{host}:{port}"
    )
    provider.initialize()
    settings = dev_settings(data_dir, key_provider="aws", key_cache_ttl_seconds=0.1)
    manager = start_key_ring(settings, provider)
    url = await new_database()
    app = create_app(settings, database_url=url, key_manager=manager)
    try:
        async with running(app) as client:
            server.stop()
            assert wait_until(lambda: manager.status().consecutive_failures >= 1)
            public = await client.get("/health/ready")
            assert public.status_code == 200 and public.json() == {"status": "degraded"}
            response = await owner_readiness(app, url)
            assert response.status_code == 200
            body = response.json()
            assert body["status"] == "degraded" and body["reasons"] == ["key_refresh_failing"]
            assert "unreachable" in body["key_ring"]["last_refresh_error"]
            assert body["key_ring"]["loaded"] is True
    finally:
        manager.stop()


async def test_readiness_is_503_when_the_database_goes_away(
    new_database: NewDatabase, data_dir: Path, pg_server: PgServer
) -> None:
    url = await new_database()
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app) as client:
        assert (await client.get("/health/ready")).status_code == 200
        name = make_url(url).database
        await admin_execute(pg_server, f'DROP DATABASE "{name}" WITH (FORCE)')
        # The answer comes from kept state, which the background check refreshes every
        # READY_REFRESH_SECONDS: the next refresh says so, with no request needed to find it.
        async with asyncio.timeout(health.READY_REFRESH_SECONDS + 10):
            while (response := await client.get("/health/ready")).status_code == 200:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
    # Signing in needs the database, so only the public answer is left: not ready.
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}


async def test_pgcrypto_backend_refuses_to_start_without_pgcrypto(data_dir: Path) -> None:
    from carevault.db.migrate import upgrade

    with embedded_server("plain") as url:  # the embedded server has no pgcrypto
        await asyncio.to_thread(upgrade, url)
        app = create_app(dev_settings(data_dir, phi_backend="pgcrypto"), database_url=url)
        with pytest.raises(StartupError, match="no pgcrypto extension"):
            async with running(app):
                pass


async def test_public_readiness_answers_from_kept_state_without_the_database(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Load balancers poll every instance: their answer costs no statement and no Alembic
    migration context (33-42 ms of CPU each, before issue 27). The schema is read at start
    and then every SCHEMA_CHECK_INTERVAL_SECONDS; the owners' report checks the database
    afresh, still without Alembic."""
    url = await new_database()
    revisions: list[str | None] = []
    read_revision = current_revision

    async def counting(engine: object) -> str | None:
        revision = await read_revision(engine)  # type: ignore[arg-type]
        revisions.append(revision)
        return revision

    monkeypatch.setattr("carevault.api.readiness.current_revision", counting)
    monkeypatch.setattr(health, "READY_REFRESH_SECONDS", 0.0)  # no background refresh here
    monkeypatch.setattr(health, "READY_MAX_AGE_SECONDS", 3600.0)
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app) as client:
        engine = app.state.carevault.engine
        statements: list[str] = []
        # Only what the polls send (httpx's ASGI transport runs the app in this task, and a
        # check it starts inherits the context): the app's background workers (sealer,
        # deliveries, pruners), started before, share the engine and may send their own
        # statements meanwhile on a busy machine.
        POLLING.set(True)

        def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
            if POLLING.get():
                statements.append(statement)

        event.listen(engine.sync_engine, "before_cursor_execute", record)
        try:
            first = await client.get("/health/ready")  # nothing kept yet: checks once
            checked = len(statements)
            answers = [await client.get("/health/ready") for _ in range(20)]
            polled = len(statements) - checked
            report = await health.readiness(app.state.carevault)  # the owners' report
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", record)
    assert first.status_code == 200 and first.json() == {"status": "ready"}
    assert checked > 0  # the first answer did check the database
    assert [a.status_code for a in answers] == [200] * 20
    assert polled == 0  # twenty polls, not one statement
    assert report.status == "ready" and report.database.schema_revision == head_revision()
    assert revisions == [head_revision()]  # read once, at the first check


async def test_the_schema_is_read_again_after_its_interval(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await new_database()
    calls: list[int] = []
    read_revision = current_revision

    async def counting(engine: object) -> str | None:
        calls.append(1)
        return await read_revision(engine)  # type: ignore[arg-type]

    monkeypatch.setattr("carevault.api.readiness.current_revision", counting)
    monkeypatch.setattr(health, "READY_REFRESH_SECONDS", 0.0)
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app):
        state = app.state.carevault
        await health.readiness(state)
        await health.readiness(state)
        assert len(calls) == 1
        monkeypatch.setattr(health, "SCHEMA_CHECK_INTERVAL_SECONDS", 0.0)
        report = await health.readiness(state)
    assert len(calls) == 2
    assert report.database.schema_revision == head_revision()


async def test_concurrent_polls_share_one_check(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Polls that find the kept state stale join the one check under way instead of each
    starting their own (a pile of checks was reported as a database timeout)."""
    url = await new_database()
    monkeypatch.setattr(health, "READY_REFRESH_SECONDS", 0.0)
    monkeypatch.setattr(health, "READY_MAX_AGE_SECONDS", 0.0)
    checks: list[int] = []
    check = health.readiness

    async def counting(state: object) -> object:
        checks.append(1)
        return await check(state)  # type: ignore[arg-type]

    monkeypatch.setattr(health, "readiness", counting)
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app) as client:
        answers = await asyncio.gather(*(client.get("/health/ready") for _ in range(8)))
    assert [a.json() for a in answers] == [{"status": "ready"}] * 8
    assert len(checks) == 1


async def test_a_check_beside_another_waits_for_it_instead_of_reporting_a_timeout(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owners' report while the background check runs: two checks at once made the
    second report `database_timeout` (its guard against piling up checks on a frozen
    database), so the report said unavailable on a healthy database."""
    monkeypatch.setattr(health, "READY_REFRESH_SECONDS", 0.0)
    app = create_app(dev_settings(data_dir), database_url=await new_database())
    async with running(app):
        state = app.state.carevault
        reports = await asyncio.gather(*(health.readiness(state) for _ in range(3)))
    assert [r.status for r in reports] == ["ready"] * 3, [r.reasons for r in reports]


async def test_a_worker_started_while_the_database_is_away_waits_for_it(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker uvicorn starts during a database restart (one replaced after a crash, say)
    waits for the database: a failed start made uvicorn stop every worker (the chaos run's
    "database stopped" saw the whole server go)."""
    url = await new_database()
    real = runtime.provision_data_keys
    calls = 0

    async def away_twice(*args: Any) -> int:
        nonlocal calls
        calls += 1
        if calls <= 2:
            raise ConnectionRefusedError(111, "Connection refused")
        return await real(*args)

    monkeypatch.setattr(app_module, "provision_data_keys", away_twice)
    app = create_app(dev_settings(data_dir), database_url=url)
    async with running(app) as client:
        ready = await client.get("/health/ready")
    assert calls == 3
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}


async def test_a_start_that_fails_for_another_reason_is_not_retried(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await new_database()
    calls = 0

    async def broken(*_: Any) -> int:
        nonlocal calls
        calls += 1
        raise ValueError("a defect, not an outage")

    monkeypatch.setattr(app_module, "provision_data_keys", broken)
    with pytest.raises(ValueError, match="a defect"):
        async with running(create_app(dev_settings(data_dir), database_url=url)):
            pass
    assert calls == 1


async def test_the_wait_for_the_database_at_start_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "STARTUP_DATABASE_WAIT_SECONDS", 0.5)
    calls = 0

    async def always_away() -> None:
        nonlocal calls
        calls += 1
        raise ConnectionRefusedError(111, "Connection refused")

    with pytest.raises(ConnectionRefusedError):
        await app_module.once_the_database_answers(always_away)
    assert 2 <= calls <= 4  # 0.2 s, then 0.4 s apart, within half a second
