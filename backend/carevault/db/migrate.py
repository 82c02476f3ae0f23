"""Run Alembic migrations from code (the CLI, `make run`, the tests)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.db.engine import create_engine

# Inside the package, so an installed wheel carries them (`carevault db upgrade` anywhere).
MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["configure_logging"] = False
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def upgrade_async(engine: AsyncEngine, revision: str = "head") -> None:
    def run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), revision)

    async with engine.begin() as connection:
        await connection.run_sync(run)


async def current_revision(engine: AsyncEngine) -> str | None:
    def read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as connection:
        return await connection.run_sync(read)


def upgrade(url: str, revision: str = "head") -> None:
    async def run() -> None:
        engine = create_engine(url, pool_size=1)
        try:
            await upgrade_async(engine, revision)
        finally:
            await engine.dispose()

    asyncio.run(run())
