"""The sealer: commit-safe order, crash safety, one sealer at a time, and the app's task."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from carevault.audit.checkpoints import CHECKPOINT_FILE
from carevault.audit.sealing import SEALER_LOCK, seal_all, seal_round
from carevault.audit.verify import VerifyReport, verify
from carevault.auth.models import Role
from carevault.crypto import KeyRing, LocalFileProvider
from carevault.crypto.keyring import new_key_material
from carevault.db.engine import create_engine
from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api

WORKER = Path(__file__).with_name("audit_sealer_worker.py")


@pytest.fixture
async def audit_engine(new_database: NewDatabase) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(await new_database(), pool_size=4)
    yield engine
    await engine.dispose()


async def insert_event(connection: AsyncConnection, workspace: uuid.UUID | None = None) -> int:
    found = await connection.scalar(
        text(
            "INSERT INTO audit_events (workspace_id, action) VALUES (:w, 'test.event') RETURNING id"
        ),
        {"w": workspace},
    )
    return int(found)


async def committed_events(engine: AsyncEngine, count: int) -> list[int]:
    ids = []
    for _ in range(count):
        async with engine.begin() as connection:
            ids.append(await insert_event(connection))
    return ids


async def sealed_ids(engine: AsyncEngine) -> list[int]:
    async with engine.connect() as connection:
        rows = await connection.execute(text("SELECT unnest(event_ids) AS id FROM audit_seals"))
        return [int(row.id) for row in rows]


async def all_event_ids(engine: AsyncEngine) -> list[int]:
    async with engine.connect() as connection:
        return [int(i) for i in await connection.scalars(text("SELECT id FROM audit_events"))]


async def check(engine: AsyncEngine, key: bytes) -> VerifyReport:
    async with engine.connect() as connection, connection.begin():
        return await verify(connection, key, checkpoint=None)


def assert_sealed_once(sealed: list[int], events: list[int]) -> None:
    twice = [event for event, n in Counter(sealed).items() if n > 1]
    assert twice == []
    assert sorted(sealed) == sorted(events)


async def test_a_transaction_open_across_a_seal_is_not_sealed_past(
    audit_engine: AsyncEngine,
) -> None:
    """Ids are allocated before commit: the lower id commits last. The sealer must not seal
    past the open transaction, or the lower id would never be sealed."""
    key = new_key_material()
    async with audit_engine.connect() as slow:
        transaction = await slow.begin()
        low = await insert_event(slow)
        (high,) = await committed_events(audit_engine, 1)
        assert low < high
        assert await seal_all(audit_engine, key, wait_for_lock=False) == 0
        assert await sealed_ids(audit_engine) == []
        await transaction.commit()
    (later,) = await committed_events(audit_engine, 1)
    assert await seal_all(audit_engine, key, wait_for_lock=False) == 3
    assert_sealed_once(await sealed_ids(audit_engine), [low, high, later])
    report = await check(audit_engine, key)
    assert [f for f in report.findings if f.severity != "WARNING"] == []
    assert report.events == 3


async def test_an_open_transaction_in_another_database_does_not_hold_sealing_back(
    audit_engine: AsyncEngine, new_database: NewDatabase
) -> None:
    other = create_engine(await new_database(), pool_size=1)
    try:
        async with other.connect() as elsewhere:
            transaction = await elsewhere.begin()
            await insert_event(elsewhere)  # holds an xid below ours, in another database
            ids = await committed_events(audit_engine, 2)
            assert await seal_all(audit_engine, new_key_material(), wait_for_lock=False) == 2
            assert_sealed_once(await sealed_ids(audit_engine), ids)
            await transaction.rollback()
    finally:
        await other.dispose()


async def test_a_rolled_back_event_leaves_no_gap(audit_engine: AsyncEngine) -> None:
    key = new_key_material()
    async with audit_engine.connect() as connection:
        transaction = await connection.begin()
        await insert_event(connection)
        await transaction.rollback()
    ids = await committed_events(audit_engine, 2)
    await seal_all(audit_engine, key, wait_for_lock=False)
    assert_sealed_once(await sealed_ids(audit_engine), ids)
    assert (await check(audit_engine, key)).ok


async def rounds_until_sealed(
    engine: AsyncEngine, key: bytes, *, limit: int, events: int
) -> list[int]:
    """The sizes of the rounds that sealed something, until `events` events are sealed in
    all. On a server shared with other test runs a round can seal nothing: the sealer waits
    for a transaction it cannot place yet (see SAFE_UPPER_SQL), so empty rounds are retried
    (bounded) instead of taken for the end."""
    rounds: list[int] = []
    for _ in range(200):
        async with engine.begin() as connection:
            result = await seal_round(connection, key, limit=limit)
        if result.events:
            rounds.append(result.events)
        if len(await sealed_ids(engine)) >= events:
            return rounds
        if not result.more:
            await asyncio.sleep(0.05)
    raise AssertionError(f"only {len(await sealed_ids(engine))} of {events} events sealed")


async def test_rounds_stop_at_their_limit_on_a_transaction_boundary(
    audit_engine: AsyncEngine,
) -> None:
    key = new_key_material()
    ids = await committed_events(audit_engine, 7)
    async with audit_engine.begin() as connection:  # one transaction bigger than the limit
        ids += [await insert_event(connection) for _ in range(6)]
    ids += await committed_events(audit_engine, 3)
    rounds = await rounds_until_sealed(audit_engine, key, limit=4, events=len(ids))
    assert max(rounds) == 6 and sum(rounds) == len(ids)  # the big transaction sealed whole
    assert_sealed_once(await sealed_ids(audit_engine), ids)
    report = await check(audit_engine, key)
    assert report.ok and report.seals == len([r for r in rounds if r])


async def test_a_transaction_bigger_than_a_round_after_the_frontier_is_sealed_whole(
    audit_engine: AsyncEngine,
) -> None:
    """After a round the frontier sits at the safe bound, usually below the next event's
    transaction; a bulk import there with more events than a round takes must still go."""
    key = new_key_material()
    ids = await committed_events(audit_engine, 2)
    assert await rounds_until_sealed(audit_engine, key, limit=3, events=len(ids)) == [2]
    async with audit_engine.begin() as connection:
        await connection.execute(text("SELECT pg_current_xact_id()"))  # burn a transaction id
    async with audit_engine.begin() as connection:
        ids += [await insert_event(connection) for _ in range(7)]
    assert await rounds_until_sealed(audit_engine, key, limit=3, events=len(ids)) == [7]
    assert_sealed_once(await sealed_ids(audit_engine), ids)
    assert (await check(audit_engine, key)).ok


async def test_a_second_sealer_skips_while_one_holds_the_lock(audit_engine: AsyncEngine) -> None:
    await committed_events(audit_engine, 3)
    async with audit_engine.connect() as leader:
        transaction = await leader.begin()
        await leader.execute(
            text("SELECT pg_advisory_xact_lock(:a, :b)"),
            {"a": SEALER_LOCK[0], "b": SEALER_LOCK[1]},
        )
        async with audit_engine.begin() as connection:
            result = await seal_round(connection, new_key_material())
        assert not result.leader and result.events == 0
        await transaction.rollback()
    assert await sealed_ids(audit_engine) == []


METRICS_TOKEN = "metrics-token-for-tests"


def root_client(api: ApiContext) -> httpx.AsyncClient:
    """Outside /api/v1, with the Prometheus token /metrics requires."""
    transport = httpx.ASGITransport(app=api.app)
    return httpx.AsyncClient(
        transport=transport,
        base_url="http://testserver",
        headers={"Authorization": f"Bearer {METRICS_TOKEN}"},
    )


def worker(url: str, key: bytes, *arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), url, key.hex(), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def test_a_sealer_killed_mid_round_resumes_without_gaps_or_double_seals(
    audit_engine: AsyncEngine,
) -> None:
    key = new_key_material()
    url = audit_engine.url.render_as_string(hide_password=False)
    ids = await committed_events(audit_engine, 25)
    process = worker(url, key, "pause")
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 60)
        assert line.strip() == "sealed-uncommitted 25"  # seal rows written, not committed
        os.kill(process.pid, signal.SIGKILL)
        await asyncio.to_thread(process.wait, 30)
    finally:
        if process.poll() is None:
            process.kill()
    assert await sealed_ids(audit_engine) == []
    ids += await committed_events(audit_engine, 5)
    # Waits for the killed backend's lock to go, then seals everything once.
    assert await asyncio.wait_for(seal_all(audit_engine, key, wait_for_lock=True), 60) == 30
    assert_sealed_once(await sealed_ids(audit_engine), ids)
    assert (await check(audit_engine, key)).ok


async def test_two_sealer_processes_never_seal_at_the_same_time(
    audit_engine: AsyncEngine,
) -> None:
    key = new_key_material()
    url = audit_engine.url.render_as_string(hide_password=False)
    async with audit_engine.begin() as connection:
        spaces = [uuid.uuid4() for _ in range(3)]
        for space in spaces:
            await connection.execute(
                text("INSERT INTO workspaces (id, name) VALUES (:id, :name)"),
                {"id": space, "name": f"sealing {space}"},
            )
    processes = [worker(url, key, "loop", "150") for _ in range(2)]

    async def write(chain: uuid.UUID) -> None:
        for _ in range(60):
            async with audit_engine.begin() as connection:
                await insert_event(connection, chain)

    try:
        await asyncio.gather(*(write(space) for space in spaces))
        outputs = [await asyncio.to_thread(p.communicate, None, 120) for p in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert all(p.returncode == 0 for p in processes), [o[1] for o in outputs]
    # Microseconds on the database's clock, taken while each process held the sealer lock.
    spans = sorted(
        (int(started), int(ended))
        for stdout, _ in outputs
        for _, started, ended, _ in (line.split("|") for line in stdout.splitlines())
    )
    assert spans, "neither process ever sealed"
    for (_, ended), (started, _) in itertools.pairwise(spans):
        assert ended < started
    await seal_all(audit_engine, key, wait_for_lock=True)
    assert_sealed_once(await sealed_ids(audit_engine), await all_event_ids(audit_engine))
    async with audit_engine.connect() as connection:
        gaps = await connection.scalar(
            text(
                "SELECT count(*) FROM (SELECT seq, lag(seq) OVER (PARTITION BY workspace_id "
                "ORDER BY seq) AS previous FROM audit_seals) AS s "
                "WHERE seq <> coalesce(previous, 0) + 1"
            )
        )
    assert gaps == 0
    assert (await check(audit_engine, key)).ok


async def test_the_app_seals_in_the_background_and_reports_its_lag(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(
        await new_database(),
        data_dir,
        audit_seal_interval_seconds=0.05,
        metrics_token=METRICS_TOKEN,
    ) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.signed_in(owner) as client:
            for _ in range(5):
                await client.get("/auth/me")
            for _ in range(400):  # bounded: the sealer runs every 0.05 s
                # The detailed readiness report is for owners (the public one is status only).
                ready = (await client.get("/system/readiness")).json()
                if ready["audit"]["unsealed_events"] == 0:
                    break
                await asyncio.sleep(0.05)
        async with root_client(api) as client:
            metrics = (await client.get("/metrics")).text
    audit = ready["audit"]
    assert audit["unsealed_events"] == 0 and audit["lag_seconds"] == 0
    assert audit["sealer_running"] and audit["error"] is None
    assert ready["status"] == "ready"
    assert "carevault_audit_sealing_lag_seconds" in metrics
    assert "carevault_audit_sealer_healthy 1.0" in metrics
    assert (data_dir / CHECKPOINT_FILE).exists()  # the first round's checkpoint


async def test_without_an_audit_key_the_app_serves_but_reports_it(
    new_database: NewDatabase, data_dir: Path
) -> None:
    ring = replace(KeyRing.generate(), audit_key=None)
    LocalFileProvider(data_dir / "keyring.json").store(ring)
    async with running_api(await new_database(), data_dir, audit_seal_interval_seconds=0.05) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.signed_in(owner) as client:
            assert (await client.get("/auth/me")).status_code == 200
            ready = await client.get("/system/readiness")
    assert ready.json()["status"] == "degraded"
    assert ready.json()["audit"]["error"] == (
        "no audit key in the key ring; run `carevault keys add-audit-key`"
    )


async def test_a_role_with_only_insert_and_select_on_audit_tables_can_record_and_seal(
    audit_engine: AsyncEngine,
) -> None:
    """What the runtime role gets in production: no UPDATE or DELETE on the audit tables.
    (It also cannot see other roles' transaction ids in pg_stat_activity, which only makes
    the sealer wait for them.)"""
    role = f"cv_runtime_{uuid.uuid4().hex[:8]}"
    key = new_key_material()
    async with audit_engine.connect() as connection:
        await connection.execute(text(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER"))
        await connection.execute(text(f"GRANT USAGE ON SCHEMA public TO {role}"))
        await connection.execute(
            text(f"GRANT SELECT, INSERT ON audit_events, audit_seals TO {role}")
        )
        await connection.commit()
        try:
            async with connection.begin():
                await connection.execute(text(f"SET LOCAL ROLE {role}"))
                event = await insert_event(connection)
            # Rounds until the event is sealed: the role waits for every transaction of the
            # cluster it cannot see (other test workers' too), as the docstring says.
            async with asyncio.timeout(15):
                while True:
                    async with connection.begin():
                        await connection.execute(text(f"SET LOCAL ROLE {role}"))
                        result = await seal_round(connection, key)
                    if result.events:
                        break
                    await asyncio.sleep(0.05)
            assert result.leader and result.events == 1
            with pytest.raises(Exception, match="permission denied"):
                async with connection.begin():
                    await connection.execute(text(f"SET LOCAL ROLE {role}"))
                    await connection.execute(text("DELETE FROM audit_seals"))
        finally:
            await connection.rollback()
            await connection.execute(text(f"DROP OWNED BY {role}"))
            await connection.execute(text(f"DROP ROLE {role}"))
            await connection.commit()
    assert_sealed_once(await sealed_ids(audit_engine), [event])
    assert (await check(audit_engine, key)).ok


async def test_digests_do_not_depend_on_the_session_time_zone(audit_engine: AsyncEngine) -> None:
    key = new_key_material()
    ids = await committed_events(audit_engine, 2)
    async with audit_engine.begin() as connection:
        await connection.execute(text("SET LOCAL TimeZone = 'Asia/Kolkata'"))
        await connection.execute(text("SET LOCAL DateStyle = 'SQL, DMY'"))
        await seal_round(connection, key)
    async with audit_engine.connect() as connection, connection.begin():
        await connection.execute(text("SET LOCAL TimeZone = 'America/New_York'"))
        report = await verify(connection, key, checkpoint=None)
    assert report.ok and report.events == len(ids)
