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
    UNREACHABLE_LSN,
    ReadsAfter,
    ReplicaRouter,
    ReplicaStatus,
    credential_key,
    parse_lsn,
    parse_read_after,
    read_after_token,
)
from carevault.db.routing import reads_only


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


def test_a_write_position_token_round_trips_and_a_malformed_one_means_the_primary() -> None:
    position = (0x16 << 32) + 0xB374D848
    token = read_after_token(position)
    assert parse_read_after(token) == position
    assert parse_read_after(None, "") is None  # nothing presented
    # The header and the cookie both presented: the further one counts.
    assert parse_read_after(read_after_token(5), read_after_token(9)) == 9
    for malformed in (
        "16/B374D848",
        "w1.",
        "w1.xyz",
        "w2.10",
        "w1." + "f" * 17,
        "w1.-1",
        "w1. 1",
        "w1.1_0",
    ):
        assert parse_read_after(malformed) == UNREACHABLE_LSN, malformed


def test_a_presented_position_reads_the_replica_only_once_replayed() -> None:
    router = _router()
    reader = b"r" * 16
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=100)
    assert router.route(reader, 100) is router.replica.sync_engine
    assert router.route(reader, 101) is None
    assert router.route(reader, UNREACHABLE_LSN) is None
    assert router.counts.awaiting_replay == 2
    # Without a replay position known (not checked yet), a presented position waits.
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic())
    assert router.route(reader, 0) is None
    assert router.route(reader) is router.replica.sync_engine
    # The per-process window still comes first.
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=100)
    router.wrote(reader)
    assert router.route(reader, 1) is None
    assert router.counts.read_your_writes == 1 and router.counts.awaiting_replay == 3


async def test_an_exports_pages_follow_the_replica_page_by_page() -> None:
    router = _router(max_lag_seconds=0.1, interval=0.05)
    reads = ReadsAfter(router, 100)
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=99)
    assert reads.bind() is None  # not replayed the export's start yet
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=100)
    assert reads.bind() is router.replica.sync_engine
    reads.failed(ConnectionResetError())  # a page failed there: the next from the primary
    assert router.status.state == "unreachable" and reads.bind() is None
    assert (router.counts.export_pages_replica, router.counts.export_pages_primary) == (1, 2)
    # No replica, or the primary's position unknown: the primary, with nothing to wait for.
    assert ReadsAfter(None, 100).bind() is None
    unknown = ReadsAfter(router, None)
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=100)
    await unknown.settle()
    assert unknown.bind() is None


async def test_settling_waits_for_the_replay_and_gives_up_on_an_unusable_replica() -> None:
    router = _router(max_lag_seconds=0.1, interval=0.05)
    reads = ReadsAfter(router, 100)
    router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=50)

    async def replay() -> None:
        await asyncio.sleep(0.05)
        router.status = ReplicaStatus(state="streaming", checked=time.monotonic(), replayed_lsn=120)

    replaying = asyncio.create_task(replay())
    await reads.settle()
    await replaying
    assert reads.bind() is router.replica.sync_engine
    # A replica that is down is not waited for at all.
    router.status = ReplicaStatus(state="unreachable", checked=time.monotonic())
    await ReadsAfter(router, 200).settle()
    assert ReadsAfter(router, 200).bind() is None
