"""The running app's health endpoints, over ASGI with the real lifespan."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import make_url

from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.config import Settings
from carevault.crypto.aws import SecretsManagerProvider
from carevault.db.migrate import head_revision
from carevault.runtime import StartupError, start_key_ring
from tests.support.db import NewDatabase, PgServer, admin_execute, embedded_server
from tests.support.http import ApiContext
from tests.support.processes import wait_until


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
        name = make_url(url).database
        await admin_execute(pg_server, f'DROP DATABASE "{name}" WITH (FORCE)')
        response = await client.get("/health/ready")
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
