"""Migration 0029 (every key of a tenant table includes workspace_id): down to 0028 it gives
back exactly the keys a database migrated only to 0028 has, and up again the keys of head;
it refuses, by name, a reference that crosses practices; and a reference's `SET NULL`
clears the reference, never the practice."""

from __future__ import annotations

import uuid

import asyncpg
import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from tests.support.db import NewDatabase, PgServer, admin_execute, libpq_dsn

# Every key and index of the public schema, as PostgreSQL would write it again.
KEYS = """
SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace
UNION ALL
SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
WHERE t.relnamespace = 'public'::regnamespace
ORDER BY 1, 2, 3
"""


async def keys(engine: AsyncEngine) -> list[tuple[str, str, str]]:
    async with engine.connect() as connection:
        return [tuple(row) for row in (await connection.execute(text(KEYS))).all()]


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    def run(sync: Connection) -> None:
        command.downgrade(alembic_config(sync), revision)

    async with engine.begin() as migrating:
        await migrating.run_sync(run)


async def test_0029_downgrades_to_the_keys_of_0028_and_upgrades_again(
    new_database: NewDatabase, pg_server: PgServer
) -> None:
    engine = create_engine(await new_database(), pool_size=1)
    name = f"cv_0028_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    only_0028 = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(only_0028, "0028")
        at_head = await keys(engine)
        await downgrade(engine, "0028")
        assert await keys(engine) == await keys(only_0028)
        await upgrade_async(engine)
        assert await keys(engine) == at_head
        assert ("users", "pk_users", "PRIMARY KEY (id, workspace_id)") in at_head
    finally:
        await engine.dispose()
        await only_0028.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_0029_refuses_a_reference_to_another_practice_by_name(
    new_database: NewDatabase,
) -> None:
    url = await new_database()
    engine = create_engine(url, pool_size=1)
    connection = None
    try:
        await downgrade(engine, "0028")
        connection = await asyncpg.connect(libpq_dsn(url))
        first, second = uuid.uuid4(), uuid.uuid4()
        supervisor, trainee = uuid.uuid4(), uuid.uuid4()
        await connection.execute(
            "INSERT INTO workspaces (id, name) VALUES ($1, 'A'), ($2, 'B')", first, second
        )
        await connection.execute(
            "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role, "
            "supervisor_id) VALUES ($1, $2, 'a@example.test', '', 'x', 'owner', NULL), "
            "($3, $4, 'b@example.test', '', 'x', 'clinician', $1)",
            supervisor,
            first,
            trainee,
            second,
        )
        with pytest.raises(RuntimeError, match=r"users\.supervisor_id -> users: 1 rows"):
            await upgrade_async(engine)
        await connection.execute("UPDATE users SET supervisor_id = NULL")
        await upgrade_async(engine)
        # Now the key itself refuses it.
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await connection.execute(
                "UPDATE users SET supervisor_id = $1 WHERE id = $2", supervisor, trainee
            )
    finally:
        if connection is not None:
            await connection.execute("DELETE FROM users")
            await connection.execute("DELETE FROM workspaces")
            await connection.close()
        await engine.dispose()


async def test_set_null_clears_the_reference_and_keeps_the_practice(
    new_database: NewDatabase,
) -> None:
    connection = await asyncpg.connect(libpq_dsn(await new_database()))
    try:
        space, supervisor, trainee = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        await connection.execute("INSERT INTO workspaces (id, name) VALUES ($1, 'A')", space)
        await connection.execute(
            "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role, "
            "supervisor_id) VALUES ($1, $2, 'a@example.test', '', 'x', 'owner', NULL), "
            "($3, $2, 'b@example.test', '', 'x', 'clinician', $1)",
            supervisor,
            space,
            trainee,
        )
        await connection.execute("DELETE FROM users WHERE id = $1", supervisor)
        row = await connection.fetchrow(
            "SELECT workspace_id, supervisor_id FROM users WHERE id = $1", trainee
        )
        assert row is not None and (row["workspace_id"], row["supervisor_id"]) == (space, None)
    finally:
        await connection.execute("DELETE FROM users")
        await connection.execute("DELETE FROM workspaces")
        await connection.close()
