"""The pool of test databases: a database a test is done with comes back as the migrations
left it (no rows, sequences from their start, the audit guards on), or, when the reset cannot
bring it back, not at all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from tests.support.db import DatabasePool, PgServer


@pytest.fixture
async def pool(pg_server: PgServer, template_database: str) -> AsyncIterator[DatabasePool]:
    """A pool of its own, holding two databases (as many as it keeps) that are given back."""
    pool = DatabasePool(pg_server, template_database)
    try:
        yield pool
    finally:
        pool.close()


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
    await execute(
        pg_server, used, "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete"
    )
    pool.give_back(used)
    pool.give_back(other)

    assert await pool.take() == used
    tables = await execute(
        pg_server, used, "SELECT count(*) AS n FROM workspaces", "SELECT count(*) FROM audit_events"
    )
    assert tables[0][0] == 0
    again = await execute(pg_server, used, *WRITES)
    assert again[0]["id"] == first_id
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="append-only"):
        await execute(pg_server, used, "DELETE FROM audit_events")


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE clients ADD COLUMN extra text",
        "CREATE TABLE extra (id int)",
        "GRANT SELECT ON audit_events TO PUBLIC",
        "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_truncate",
        "CREATE SEQUENCE extra_seq",
        "UPDATE alembic_version SET version_num = '0001'",
    ],
)
async def test_a_database_whose_schema_changed_is_dropped_not_handed_out_again(
    pool: DatabasePool, pg_server: PgServer, change: str
) -> None:
    used, other = await pool.take(), await pool.take()
    await execute(pg_server, used, change)
    pool.give_back(used)
    pool.give_back(other)

    taken = {await pool.take(), await pool.take()}
    assert other in taken and used not in taken
    exists = await execute(
        pg_server, "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{used}'"
    )
    assert exists == []


async def test_a_database_left_read_only_is_dropped(
    pool: DatabasePool, pg_server: PgServer
) -> None:
    used, other = await pool.take(), await pool.take()
    await execute(
        pg_server, used, f'ALTER DATABASE "{used}" SET default_transaction_read_only = on'
    )
    pool.give_back(used)
    pool.give_back(other)

    taken = {await pool.take(), await pool.take()}
    assert other in taken and used not in taken


async def test_closing_drops_every_database_even_those_still_taken(
    pg_server: PgServer, template_database: str
) -> None:
    pool = DatabasePool(pg_server, template_database)
    kept, given_back = await pool.take(), await pool.take()
    pool.give_back(given_back)
    pool.close()

    names = ", ".join(f"'{name}'" for name in (kept, given_back))
    left = await execute(
        pg_server, "postgres", f"SELECT datname FROM pg_database WHERE datname IN ({names})"
    )
    assert left == []
