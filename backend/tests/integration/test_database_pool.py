"""The pool of test databases: a database a test is done with comes back as the migrations
left it (no rows, sequences from their start, the audit guards on), or, when the reset cannot
bring it back, not at all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import event, text

from tests.support.database_pool import DatabasePool, TemplateState
from tests.support.db import PgServer
from tests.support.http import ApiContext, running_api


@pytest.fixture(scope="module")
async def pool(pg_server: PgServer, template_database: str) -> AsyncIterator[DatabasePool]:
    """A pool of its own, for this module's tests: a test may be handed a database an earlier
    one gave back (each CREATE DATABASE costs the server about 0.2 s of CPU)."""
    pool = DatabasePool(pg_server, template_database)
    try:
        yield pool
    finally:
        await pool.close()


async def execute(pg_server: PgServer, database: str, *statements: str) -> list[asyncpg.Record]:
    """The rows of the last statement, each run on one connection to `database`."""
    connection = await asyncpg.connect(pg_server.dsn(database))
    try:
        rows: list[asyncpg.Record] = []
        for statement in statements:
            rows = await connection.fetch(statement)
        return rows
    finally:
        await connection.close()


WRITES = (
    "INSERT INTO workspaces (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'Pool')",
    "INSERT INTO audit_events (workspace_id, action) "
    "VALUES ('00000000-0000-4000-8000-000000000001', 'test.event') RETURNING id",
)


async def test_a_used_database_comes_back_empty_with_sequences_and_guards_as_migrated(
    pool: DatabasePool, pg_server: PgServer
) -> None:
    used, other = await pool.take(), await pool.take()
    first_id = (await execute(pg_server, used, *WRITES))[0]["id"]
    await pool.give_back(other)
    await pool.give_back(used)

    assert await pool.take() == used  # the most recently given back first
    tables = await execute(
        pg_server, used, "SELECT count(*) AS n FROM workspaces", "SELECT count(*) FROM audit_events"
    )
    assert tables[0][0] == 0
    again = await execute(pg_server, used, *WRITES)
    assert again[0]["id"] == first_id
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="append-only"):
        await execute(pg_server, used, "DELETE FROM audit_events")


# What a test may leave behind that the next one must not inherit. Each is made, and the
# fingerprint read, inside a transaction that is then rolled back (DDL is transactional in
# PostgreSQL): one database serves every case, where a pool drops each (a clone costs the
# server about 0.2 s of CPU). The pool's drop itself is tested once below.
CHANGES = [
    "ALTER TABLE clients ADD COLUMN extra text",
    "CREATE TABLE extra (id int)",
    "GRANT SELECT ON audit_events TO PUBLIC",
    "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_truncate",
    "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete",
    "CREATE SEQUENCE extra_seq",
    "UPDATE alembic_version SET version_num = '0001'",
    "ALTER DATABASE {database} SET default_transaction_read_only = on",
]


@pytest.mark.parametrize("change", CHANGES)
async def test_a_change_a_test_may_leave_changes_the_fingerprint(
    pool: DatabasePool, pg_server: PgServer, template_database: str, change: str
) -> None:
    state = await TemplateState.read_from(pg_server.dsn(template_database))
    name = await pool.take()
    connection = await asyncpg.connect(pg_server.dsn(name))
    try:
        async with connection.transaction():
            assert await state.fingerprint_of(connection) == state.fingerprint
            await connection.execute(change.format(database=f'"{name}"'))
            changed = await state.fingerprint_of(connection)
            raise _RollBack
    except _RollBack:
        pass
    finally:
        await connection.close()
    await pool.give_back(name)
    assert changed != state.fingerprint


class _RollBack(Exception):
    """Leaves a transaction, rolling it back."""


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE clients ADD COLUMN extra text",  # the fingerprint differs
        "ALTER DATABASE {database} SET default_transaction_read_only = on",  # the reset fails
    ],
)
async def test_a_database_left_changed_is_dropped_not_handed_out_again(
    pool: DatabasePool, pg_server: PgServer, change: str
) -> None:
    used, other = await pool.take(), await pool.take()
    await execute(pg_server, used, change.format(database=f'"{used}"'))
    await pool.give_back(used)
    await pool.give_back(other)

    assert await pool.take() == other
    exists = await execute(
        pg_server, "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{used}'"
    )
    assert exists == []
    await pool.give_back(other)


async def test_closing_drops_every_database_even_those_still_taken(
    pg_server: PgServer, template_database: str
) -> None:
    pool = DatabasePool(pg_server, template_database)
    kept, given_back = await pool.take(), await pool.take()
    await pool.give_back(given_back)
    await pool.close()

    names = ", ".join(f"'{name}'" for name in (kept, given_back))
    left = await execute(
        pg_server, "postgres", f"SELECT datname FROM pg_database WHERE datname IN ({names})"
    )
    assert left == []


async def sessions_on(pg_server: PgServer, name: str) -> set[int]:
    """The server processes of every session on database `name`."""
    query = f"SELECT pid FROM pg_stat_activity WHERE datname = '{name}'"
    return {row["pid"] for row in await execute(pg_server, "postgres", query)}


async def server_pid_of(api: ApiContext) -> int:
    """The server process of a connection of the app's engine."""
    async with api.sessions() as db:
        pid: int = (await db.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        return pid


async def test_the_next_app_on_a_database_runs_on_the_connections_the_last_one_left(
    pool: DatabasePool, data_dir: Path, pg_server: PgServer
) -> None:
    name = await pool.take()
    async with running_api(pool.url_of(name), data_dir) as first:
        await server_pid_of(first)
        first_engine = first.app.state.carevault.engine
    # The app has stopped: what is left on the database is its engine's idle connections
    # (and the pool's own, if the database was reset before).
    left = await sessions_on(pg_server, name)
    await pool.give_back(name)

    assert await pool.take() == name
    async with running_api(pool.url_of(name), data_dir) as second:
        assert second.app.state.carevault.engine is first_engine
        assert await server_pid_of(second) in left
    # Another app's settings that the engine is built for: an engine of its own.
    async with running_api(pool.url_of(name), data_dir, request_timeout_seconds=7) as other:
        assert other.app.state.carevault.engine is not first_engine
    await pool.give_back(name)


async def test_a_reset_ends_every_other_session_but_the_kept_engines_idle_ones(
    pool: DatabasePool, data_dir: Path, pg_server: PgServer
) -> None:
    name = await pool.take()
    async with running_api(pool.url_of(name), data_dir) as api:
        kept_pid = await server_pid_of(api)
        left_in_a_transaction = await asyncpg.connect(pg_server.dsn(name))
        await left_in_a_transaction.execute("BEGIN; SELECT count(*) FROM clients")
        left_idle = await asyncpg.connect(pg_server.dsn(name))
        # A connection of the kept engine that a test leaves in a transaction is ended too.
        left_out = await api.app.state.carevault.engine.connect()
        await left_out.execute(text("SELECT 1"))
        left_out_pid = left_out.sync_connection.connection.driver_connection.get_server_pid()
    await pool.give_back(name)

    pids = await sessions_on(pg_server, name)
    assert left_in_a_transaction.get_server_pid() not in pids
    assert left_idle.get_server_pid() not in pids
    assert left_out_pid not in pids
    # That engine had a connection out, so it is closed rather than handed on.
    assert kept_pid not in pids
    await left_out.invalidate()  # their server processes were ended
    left_in_a_transaction.terminate()
    left_idle.terminate()


async def test_an_engine_a_test_added_a_listener_to_is_not_handed_on(
    pool: DatabasePool, data_dir: Path, pg_server: PgServer
) -> None:
    name = await pool.take()
    async with running_api(pool.url_of(name), data_dir) as api:
        kept_pid = await server_pid_of(api)
        first_engine = api.app.state.carevault.engine
        event.listen(first_engine.sync_engine, "before_cursor_execute", lambda *_: None)
    await pool.give_back(name)
    assert kept_pid not in await sessions_on(pg_server, name)

    assert await pool.take() == name
    async with running_api(pool.url_of(name), data_dir) as api:
        assert api.app.state.carevault.engine is not first_engine
    await pool.give_back(name)
