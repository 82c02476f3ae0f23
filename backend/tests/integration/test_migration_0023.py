"""Migration 0023 (the change feed) goes down to 0022 and up again: tables, functions,
triggers and indexes all go, and come back working."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import Connection

from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from tests.support.db import NewDatabase

OBJECTS = """
SELECT (SELECT count(*) FROM pg_class WHERE relname IN
            ('change_events', 'change_event_horizons', 'ix_clients_workspace_updated',
             'ix_appointments_workspace_updated', 'ix_sessions_workspace_updated'))
     + (SELECT count(*) FROM pg_proc WHERE proname IN
            ('carevault_change_kind', 'carevault_record_changes', 'carevault_record_shred'))
     + (SELECT count(*) FROM pg_trigger
        WHERE tgname ~ '_record_changes_(insert|update|delete)$'
           OR tgname = 'workspaces_record_shred')
"""


async def test_0023_downgrades_and_upgrades_cleanly(new_database: NewDatabase) -> None:
    engine = create_engine(await new_database(), pool_size=1)
    try:
        async with engine.connect() as connection:
            created = await connection.scalar(text(OBJECTS))
        assert created == 5 + 3 + 13  # 4 tables x 3 triggers, and the shred trigger

        def downgrade(sync: Connection) -> None:
            command.downgrade(alembic_config(sync), "0022")

        async with engine.begin() as migrating:
            await migrating.run_sync(downgrade)
        async with engine.connect() as connection:
            assert await connection.scalar(text(OBJECTS)) == 0
        await upgrade_async(engine)
        async with engine.connect() as connection:
            assert await connection.scalar(text(OBJECTS)) == created
    finally:
        await engine.dispose()
