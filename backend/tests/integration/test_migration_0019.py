"""Migration 0019 on a database that already has appointments: each gets a clinician of its
own practice (the owner, or the user chosen at migration), a shredded practice's included,
and the migration reverses."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest
from alembic import command
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from tests.support.db import PgServer, admin_execute

CHOSEN = "CAREVAULT_MIGRATE_APPOINTMENT_CLINICIAN"


def ids(count: int) -> list[str]:
    return [str(uuid.uuid4()) for _ in range(count)]


@pytest.fixture
async def at_0018(
    pg_server: PgServer,
) -> AsyncIterator[tuple[AsyncEngine, asyncpg.Connection]]:
    name = f"cv_mig_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine, "0018")
        connection = await asyncpg.connect(pg_server.dsn(name))
        try:
            yield engine, connection
        finally:
            await connection.close()
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def practice(
    connection: asyncpg.Connection, users: list[tuple[str, str, bool]], *, shredded: bool = False
) -> tuple[str, list[str], str]:
    """A practice with `users` (email, role, disabled) created in that order, a client and an
    appointment; (practice id, user ids, appointment id)."""
    space, client, appointment = ids(3)
    await connection.execute(
        "INSERT INTO workspaces (id, name) VALUES ($1, $2)", uuid.UUID(space), f"W {space}"
    )
    user_ids = []
    for offset, (email, role, disabled) in enumerate(users):
        user = str(uuid.uuid4())
        await connection.execute(
            "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role, "
            "disabled_at, created_at) VALUES ($1, $2, $3, '', 'x', $4, "
            "CASE WHEN $5 THEN now() END, now() + make_interval(secs => $6))",
            uuid.UUID(user),
            uuid.UUID(space),
            email,
            role,
            disabled,
            float(offset),
        )
        user_ids.append(user)
    await connection.execute(
        "INSERT INTO clients (id, workspace_id, first_name, last_name) "
        "VALUES ($1, $2, '\\x00', '\\x00')",
        uuid.UUID(client),
        uuid.UUID(space),
    )
    await connection.execute(
        "INSERT INTO appointments (id, workspace_id, client_id, starts_at, ends_at, status) "
        "VALUES ($1, $2, $3, now(), now() + interval '50 minutes', 'scheduled')",
        uuid.UUID(appointment),
        uuid.UUID(space),
        uuid.UUID(client),
    )
    if shredded:
        await connection.execute(
            "UPDATE workspaces SET shredded_at = now() WHERE id = $1", uuid.UUID(space)
        )
    return space, user_ids, appointment


async def clinician_of(connection: asyncpg.Connection, appointment: str) -> str:
    found = await connection.fetchval(
        "SELECT clinician_id FROM appointments WHERE id = $1", uuid.UUID(appointment)
    )
    return str(found)


async def test_existing_appointments_go_to_the_owner_or_the_chosen_clinician(
    at_0018: tuple[AsyncEngine, asyncpg.Connection], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, connection = at_0018
    # The first created owner that is active, not the first user nor a disabled owner.
    _, (_, _, owner, _), first = await practice(
        connection,
        [
            ("early@a.example", "clinician", False),
            ("gone@a.example", "owner", True),
            ("owner@a.example", "owner", False),
            ("late@a.example", "owner", False),
        ],
    )
    # The chosen clinician, where the practice has that user (the email ignores case).
    _, (_, chosen), second = await practice(
        connection,
        [("owner@b.example", "owner", False), ("Locum@b.example", "clinician", False)],
    )
    # A shredded practice's appointments are migrated too (no encrypted value is written).
    _, (shredded_owner,), third = await practice(
        connection, [("owner@c.example", "owner", False)], shredded=True
    )
    monkeypatch.setenv(CHOSEN, "locum@B.example")
    await upgrade_async(engine, "head")

    assert await clinician_of(connection, first) == owner
    assert await clinician_of(connection, second) == chosen
    assert await clinician_of(connection, third) == shredded_owner
    nullable = await connection.fetchval(
        "SELECT is_nullable FROM information_schema.columns "
        "WHERE table_name = 'appointments' AND column_name = 'clinician_id'"
    )
    assert nullable == "NO"
    # The shred fence is back on for the appointments table.
    enabled = await connection.fetchval(
        "SELECT tgenabled::text FROM pg_trigger "
        "WHERE tgname = 'appointments_refuse_shredded_update'"
    )
    assert enabled == "O"

    def downgrade(sync: Connection) -> None:
        command.downgrade(alembic_config(sync), "0018")

    async with engine.begin() as migrating:
        await migrating.run_sync(downgrade)
    columns = await connection.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'appointments'"
    )
    assert {"clinician_id", "room", "series_id"}.isdisjoint({c["column_name"] for c in columns})


async def test_a_practice_with_appointments_and_no_user_stops_the_migration(
    at_0018: tuple[AsyncEngine, asyncpg.Connection],
) -> None:
    engine, connection = at_0018
    space, _, _ = await practice(connection, [])
    with pytest.raises(RuntimeError, match=f"practice {space} has appointments but no user"):
        await upgrade_async(engine, "head")
    revision = await connection.fetchval("SELECT version_num FROM alembic_version")
    assert revision == "0018"
