"""Readiness names the optional pieces (carevault.api.readiness): each notice listener
(listening, or reconnecting since when) and Redis for the request limits (shared, or falling
back to per-process budgets). Either down makes the process `degraded` with the reason in
the owners' report, never `unavailable`: the public `/health/ready` still answers 200.
Nothing in the report comes from a URL (no password, no host), nor any PHI."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from carevault.api import readiness as service
from carevault.auth.models import Role
from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api
from tests.support.redis_server import free_port, redis_url_or_skip

SECRET = "s3cret-redis-pw"


@pytest.fixture
def redis_url() -> str:
    return redis_url_or_skip("the readiness tests with Redis")


async def _report(api: ApiContext) -> dict[str, Any]:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        answer = await client.get("/system/readiness")
    assert answer.status_code == 200, answer.text
    report: dict[str, Any] = answer.json()
    return report


async def _public(api: ApiContext) -> tuple[int, dict[str, Any]]:
    async with api.client() as anonymous:
        answer = await anonymous.get("http://testserver/health/ready")
    return answer.status_code, answer.json()


async def test_listening_and_shared_limits_are_reported_and_ready(
    redis_url: str, new_database: NewDatabase, data_dir: Path
) -> None:
    url = await new_database()
    async with running_api(url, data_dir, redis_url=redis_url, notifications=True) as api:
        notifier = api.app.state.carevault.notifier
        async with asyncio.timeout(10):
            while not (notifier.postgres_listening and notifier.redis_listening):  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        report = await _report(api)
    assert report["notifications"]["postgres"]["state"] == "listening", report
    assert report["notifications"]["redis"]["state"] == "listening", report
    assert report["notifications"]["redis"]["error"] is None
    assert report["redis"]["limits"] == "shared", report
    assert not [r for r in report["reasons"] if r.startswith(("notifications_", "redis_"))]


async def test_an_app_without_the_optional_pieces_reports_none_of_them(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir) as api:
        report = await _report(api)
    assert report["notifications"] is None and report["redis"] is None, report


async def test_redis_down_degrades_without_failing_readiness(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "LISTENER_GRACE_SECONDS", 0.0)
    port = free_port()
    down = f"redis://:{SECRET}@127.0.0.1:{port}/0"
    url = await new_database()
    async with running_api(url, data_dir, redis_url=down) as api:
        notifier = api.app.state.carevault.notifier
        async with asyncio.timeout(10):
            # PostgreSQL still carries the notices; the Redis listener has failed at least once.
            while not notifier.postgres_listening or notifier.redis.error is None:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        report = await _report(api)
        public_code, public = await _public(api)
    redis_listener = report["notifications"]["redis"]
    assert redis_listener["state"] == "reconnecting", report
    assert redis_listener["error"] in {"ConnectionError", "ConnectionRefusedError", "OSError"}
    assert report["notifications"]["postgres"]["state"] == "listening", report
    assert report["redis"]["limits"] == "falling_back", report
    assert report["redis"]["error"] is not None
    assert "notifications_redis_reconnecting" in report["reasons"], report
    assert "redis_limits_falling_back" in report["reasons"], report
    assert "notifications_postgres_reconnecting" not in report["reasons"], report
    # Degraded, never unavailable: the load balancer keeps the instance.
    assert report["status"] == "degraded", report
    assert public_code == 200 and public == {"status": "degraded"}
    assert SECRET not in str(report) and "127.0.0.1" not in str(report)


async def test_a_postgres_listener_that_cannot_connect_is_reported_reconnecting(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "LISTENER_GRACE_SECONDS", 0.0)
    port = free_port()
    unreachable = f"postgresql://carevault:{SECRET}@127.0.0.1:{port}/carevault"
    url = await new_database()
    async with running_api(
        url, data_dir, notifications=True, notify_database_url=unreachable
    ) as api:
        notifier = api.app.state.carevault.notifier
        async with asyncio.timeout(10):
            while notifier.postgres.error is None:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        report = await _report(api)
        public_code, _ = await _public(api)
    listener = report["notifications"]["postgres"]
    assert listener["state"] == "reconnecting", report
    assert listener["since"] is not None
    assert report["notifications"]["redis"] is None
    assert report["redis"] is None
    assert "notifications_postgres_reconnecting" in report["reasons"], report
    assert report["status"] == "degraded" and public_code == 200, report
    assert SECRET not in str(report) and "127.0.0.1" not in str(report)


async def test_within_the_grace_a_listener_starting_up_is_not_a_reason(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listener gets LISTENER_GRACE_SECONDS to (re)connect before it degrades the process."""
    monkeypatch.setattr(service, "LISTENER_GRACE_SECONDS", 3600.0)
    unreachable = f"postgresql://carevault@127.0.0.1:{free_port()}/carevault"
    async with running_api(
        await new_database(), data_dir, notifications=True, notify_database_url=unreachable
    ) as api:
        report = await _report(api)
    assert report["notifications"]["postgres"]["state"] == "reconnecting", report
    assert "notifications_postgres_reconnecting" not in report["reasons"], report
