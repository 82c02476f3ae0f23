"""Which statements may go to the read replica, and when a request is sent there
(carevault.db.replica); the streaming replica itself: tests/e2e/test_read_replica.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from pydantic import ValidationError
from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import create_async_engine

from carevault.api.dependencies import SESSION_COOKIE
from carevault.auth import dependencies as auth_dependencies
from carevault.clients.models import Client
from carevault.config import Settings
from carevault.db.replica import (
    ReplicaRouter,
    ReplicaStatus,
    credential_key,
    parse_lsn,
    reads_only,
)


def test_only_plain_selects_read_only() -> None:
    assert reads_only(select(Client.id).where(Client.last_name == "x"))
    assert reads_only(select(func.count()).select_from(Client))
    assert not reads_only(select(Client.id).with_for_update())
    assert not reads_only(insert(Client).values(last_name="x"))
    assert not reads_only(update(Client).values(last_name="x"))
    # A SELECT carrying a data-modifying CTE (an audited read in one statement) writes.
    written = insert(Client).values(last_name="x").returning(Client.id).cte("written")
    assert not reads_only(select(written.c.id))
    assert not reads_only(select(Client.id).add_cte(written))


def test_the_clients_page_with_its_event_is_not_sent_to_the_replica_whole() -> None:
    from carevault.clients import service

    listed = service._LISTED
    assert not reads_only(listed._plain) and not reads_only(listed._fenced)
    assert listed._target_reads_only  # so it is split: rows on the replica, event on primary


def test_lsn() -> None:
    assert parse_lsn("0/0") == 0
    assert parse_lsn("16/B374D848") == (0x16 << 32) + 0xB374D848
    assert parse_lsn(None) is None


def test_the_credential_is_a_digest_and_the_cookie_name_is_the_auth_one() -> None:
    assert SESSION_COOKIE == auth_dependencies.SESSION_COOKIE
    key = credential_key("Bearer cv_secret", None)
    assert key is not None and b"cv_secret" not in key and len(key) == 16
    assert credential_key(None, "cookie") != key
    assert credential_key(None, None) is None


def _router(**kwargs: float) -> ReplicaRouter:
    primary = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:1/primary")
    replica = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:1/replica")
    options = {"max_lag_seconds": 1.0, "read_your_writes_seconds": 5.0, "interval": 1.0}
    return ReplicaRouter(primary, replica, **(options | kwargs))


def test_route_to_the_replica_only_when_streaming_lately_and_not_after_a_write() -> None:
    router = _router()
    reader, writer = b"r" * 16, b"w" * 16
    assert router.route(reader) is None  # never checked
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic())
    assert router.route(reader) is router.replica.sync_engine
    router.wrote(writer)
    assert router.route(writer) is None
    assert router.counts.read_your_writes == 1
    assert router.route(reader) is router.replica.sync_engine
    for state in ("lagging", "unreachable", "not_in_recovery"):
        router.status = ReplicaStatus(state=state, checked=time.monotonic())
        assert router.route(reader) is None
    # A streaming state from a check long ago is not trusted.
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic() - 60)
    assert router.route(reader) is None
    assert router.counts.replica == 2 and router.counts.unusable == 5


def test_the_write_window_must_cover_the_lag_bound() -> None:
    url = "postgresql+asyncpg://nobody@127.0.0.1:1/replica"
    with pytest.raises(ValidationError, match="READ_YOUR_WRITES_SECONDS"):
        Settings(read_database_url=url, read_your_writes_seconds=1.0)
    assert Settings(read_database_url=url).read_your_writes_seconds == 5.0
    Settings(read_your_writes_seconds=0)  # without a replica, nothing to cover


async def test_a_check_that_hangs_even_when_cancelled_is_abandoned() -> None:
    """A frozen replica can hang a check's cancellation too: the loop does not wait for it
    and counts the replica unreachable, so reads go to the primary."""
    router = _router(interval=0.05)
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic())
    release = asyncio.Event()

    async def hanging() -> ReplicaStatus:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await release.wait()  # the cleanup hangs until the test ends
            raise
        raise AssertionError("unreachable")

    router.check = hanging  # type: ignore[method-assign]
    router.start()
    try:
        for _ in range(200):
            if router.status.state == "unreachable":
                break
            await asyncio.sleep(0.025)
        assert router.status.state == "unreachable"
        assert router.status.error == "TimeoutError"
        assert router._abandoned
        assert router.route(None) is None
    finally:
        release.set()
        await router.stop()
