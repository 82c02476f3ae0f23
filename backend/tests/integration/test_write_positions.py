"""Read-your-writes across instances (carevault.db.replica, docs/how-to/scaling.md): with a read
replica configured, every successful write answers the primary's WAL position after its
commit in `CareVault-Read-After` (and, for a browser's session, in a cookie of the same
value), read from real PostgreSQL. Reads that are not writes, and the search's POST (a
replica route), answer none; without a replica nothing is added.

The replica here is the primary itself (not in recovery, so never used for reads): what is
checked is the position each write answers. Replica reads waiting for that position:
tests/e2e/test_read_replica.py, against a real streaming replica."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from carevault.auth.models import Role
from carevault.db.deadlines import Deadlines
from carevault.db.engine import close_api_engine, create_engine, open_api_engine
from carevault.db.replica import (
    READ_AFTER_COOKIE,
    READ_AFTER_HEADER,
    ReplicaRouter,
    parse_lsn,
    parse_read_after,
)
from tests.support.db import NewDatabase, libpq_dsn
from tests.support.http import running_api

WINDOW_SECONDS = 5.0


async def _current_lsn(url: str) -> int:
    connection = await asyncpg.connect(libpq_dsn(url))
    try:
        position = parse_lsn(await connection.fetchval("SELECT pg_current_wal_lsn()::text"))
    finally:
        await connection.close()
    assert position is not None
    return position


async def test_every_write_answers_the_primarys_position_after_its_commit(
    new_database: NewDatabase, data_dir: Path
) -> None:
    url = await new_database()
    async with running_api(
        url, data_dir, read_database_url=url, read_your_writes_seconds=WINDOW_SECONDS
    ) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.signed_in(owner) as browser:
            before = await _current_lsn(url)
            created = await browser.post("/clients", json={"first_name": "A", "last_name": "B"})
            assert created.status_code == 201, created.text
            after = await _current_lsn(url)
            position = parse_read_after(created.headers[READ_AFTER_HEADER])
            # Past everything before the write (its commit included), and no further than
            # the primary has gone since.
            assert position is not None and before < position <= after
            # The UI's copy: a cookie of the same value, for as long as the write window.
            cookie = created.headers["set-cookie"]
            assert f"{READ_AFTER_COOKIE}={created.headers[READ_AFTER_HEADER]}" in cookie
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie
            assert f"Max-Age={int(WINDOW_SECONDS)}" in cookie

            again = await browser.post("/clients", json={"first_name": "C", "last_name": "D"})
            later = parse_read_after(again.headers[READ_AFTER_HEADER])
            assert later is not None and later > position

            # Reads answer no position; nor does the search's POST (it writes only its
            # audit event, and is itself a replica read).
            listed = await browser.get("/clients")
            assert listed.status_code == 200 and READ_AFTER_HEADER not in listed.headers
            searched = await browser.post("/clients/search", json={"q": "b"})
            assert searched.status_code == 200, searched.text
            assert READ_AFTER_HEADER not in searched.headers
            # A refused write changed nothing: no position.
            refused = await browser.post("/clients", json={"first_name": "no last name"})
            assert refused.status_code == 422 and READ_AFTER_HEADER not in refused.headers

        async with api.with_token(owner) as (integration, _):
            made = await integration.post("/clients", json={"first_name": "E", "last_name": "F"})
            assert made.status_code == 201, made.text
            assert parse_read_after(made.headers[READ_AFTER_HEADER]) is not None
            assert "set-cookie" not in made.headers  # a token's client reads the header


async def test_without_a_replica_writes_answer_no_position(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.signed_in(owner) as browser:
            created = await browser.post("/clients", json={"first_name": "A", "last_name": "B"})
    assert created.status_code == 201, created.text
    assert READ_AFTER_HEADER not in created.headers
    assert READ_AFTER_COOKIE not in created.headers.get("set-cookie", "")


async def test_the_primarys_position_on_either_pool_and_none_when_it_is_down(
    new_database: NewDatabase,
) -> None:
    url = await new_database()
    direct = await open_api_engine(url, Deadlines(10.0))  # with the direct asyncpg pool
    plain = create_engine(url, pool_size=1)  # commands' engines have none
    down = create_engine("postgresql+asyncpg://nobody@127.0.0.1:1/none", pool_size=1)
    try:
        for engine in (direct, plain):
            router = ReplicaRouter(
                engine, engine, max_lag_seconds=1.5, read_your_writes_seconds=5.0
            )
            before = await _current_lsn(url)
            position = await router.primary_position()
            assert position is not None and before <= position <= await _current_lsn(url)
        unreachable = ReplicaRouter(
            down, down, max_lag_seconds=1.5, read_your_writes_seconds=5.0, interval=0.5
        )
        assert await unreachable.primary_position() is None
    finally:
        await close_api_engine(direct)
        await plain.dispose()
        await down.dispose()
