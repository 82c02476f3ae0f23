"""The migrations and the models describe the same schema: `alembic upgrade head` on an
empty database, compared with the models' metadata by Alembic's autogenerate. A model
changed without a migration (or a migration without its model change) fails here, listing
each difference as `alembic revision --autogenerate` would write it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, MetaData, Text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from carevault.db.models import Base
from tests.support.db import PgServer, admin_execute

# Tables the migrations create in raw SQL for code that uses them in raw SQL, deliberately
# without a model (so no ORM query can reach them by accident). Everything else must match.
NOT_MODELLED = {
    # 0008/0013: the readiness probe's scratch tables (carevault.api.readiness), written by
    # each process's health check and never read as records.
    "health_probes",
    "health_space_probe",
    # 0014: the change counter the client list cache polls (carevault.clients.listing),
    # advanced by triggers on `clients`; its xid8 column has no SQLAlchemy type either.
    "client_list_changes",
}
# Triggers and functions (the audit trail's append-only trigger, the pgcrypto functions,
# the change-counter triggers) are raw SQL in the migrations too, but autogenerate does not
# compare them at all, so they need no rule here.


def include_name(name: str | None, kind: str, parent_names: Any) -> bool:
    """Leave the unmodelled tables out before they are even reflected."""
    return not (kind == "table" and name in NOT_MODELLED)


def differences(connection: Connection, metadata: MetaData) -> list[Any]:
    context = MigrationContext.configure(
        connection,
        opts={
            "compare_type": True,
            "compare_server_default": True,
            "include_name": include_name,
        },
    )
    return list(compare_metadata(context, metadata))


@pytest.fixture
async def migrated(pg_server: PgServer) -> AsyncIterator[AsyncEngine]:
    """An empty database of its own, brought to head by the migrations alone."""
    name = f"cv_drift_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine)
        yield engine
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_upgrade_head_builds_exactly_the_schema_the_models_describe(
    migrated: AsyncEngine,
) -> None:
    async with migrated.connect() as connection:
        found = await connection.run_sync(differences, Base.metadata)
    listing = "\n".join(f"  {difference!r}" for difference in found)
    assert not found, f"the migrations and the models differ:\n{listing}"


async def test_a_model_change_without_a_migration_is_reported(migrated: AsyncEngine) -> None:
    """The comparison sees drift: the models' metadata plus one column no migration adds."""
    drifted = MetaData(naming_convention=Base.metadata.naming_convention)
    for table in Base.metadata.sorted_tables:
        table.to_metadata(drifted)
    drifted.tables["clients"].append_column(Column("nickname", Text, nullable=True))
    async with migrated.connect() as connection:
        found = await connection.run_sync(differences, drifted)
    assert [(d[0], d[2], d[3].name) for d in found] == [("add_column", "clients", "nickname")]
