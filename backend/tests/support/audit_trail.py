"""An app's audit trail seen from outside the app: events made over HTTP, their ids and
seals, `carevault audit verify`, and changes made behind the app's back."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from carevault.auth.models import Role
from tests.support.cli import carevault
from tests.support.db import libpq_dsn, sql
from tests.support.http import ApiContext


async def verify(api: ApiContext, *options: str) -> tuple[int, str]:
    return await carevault(api, "audit", "verify", *options)


async def superuser_script(api: ApiContext, script: str) -> None:
    """Run SQL the way someone with superuser access could, outside the application."""
    connection = await asyncpg.connect(libpq_dsn(api.database_url))
    try:
        await connection.execute(script)
    finally:
        await connection.close()


@asynccontextmanager
async def as_runtime_role(api: ApiContext) -> AsyncIterator[asyncpg.Connection]:
    """A connection as a non-superuser role that owns the audit tables, like the app's role
    in a typical deployment (owner of what its migrations created)."""
    role = f"cv_app_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(libpq_dsn(api.database_url))
    try:
        await admin.execute(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER")
        await admin.execute(f"ALTER TABLE audit_events OWNER TO {role}")
        await admin.execute(f"ALTER TABLE audit_seals OWNER TO {role}")
        await admin.execute(f"SET ROLE {role}")
        assert not await admin.fetchval("SELECT rolsuper FROM pg_roles WHERE rolname = $1", role)
        yield admin
    finally:
        await admin.execute("RESET ROLE")
        await admin.execute("ALTER TABLE audit_events OWNER TO CURRENT_USER")
        await admin.execute("ALTER TABLE audit_seals OWNER TO CURRENT_USER")
        await admin.execute(f"DROP ROLE {role}")
        await admin.close()


async def produce_events(api: ApiContext, count: int) -> uuid.UUID:
    """A new workspace whose owner signs in and does `count` audited things; its id."""
    space, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        for _ in range(count):
            assert (await client.get("/auth/me")).status_code == 200
            await client.post("/auth/tokens", json={"name": "t", "scopes": ["clients:read"]})
    return space.id


async def event_ids(api: ApiContext, workspace: uuid.UUID) -> list[int]:
    rows = await sql(
        api, "SELECT id FROM audit_events WHERE workspace_id = $1 ORDER BY id", workspace
    )
    return [int(r["id"]) for r in rows]


async def seal_of(api: ApiContext, event_id: int) -> int:
    rows = await sql(api, "SELECT seq FROM audit_seals WHERE $1 = ANY(event_ids)", event_id)
    assert len(rows) == 1
    return int(rows[0]["seq"])


async def sealed_and_checkpointed(api: ApiContext, events: int = 3) -> uuid.UUID:
    workspace = await produce_events(api, events)
    code, output = await carevault(api, "audit", "checkpoint")
    assert code == 0, output
    return workspace
