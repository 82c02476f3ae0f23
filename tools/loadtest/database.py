"""The tool's own PostgreSQL databases: dropped and recreated on every run, never any other."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg

DEFAULT_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
# Only names the tool owns may be dropped.
OWNED_NAME = re.compile(r"carevault_loadtest(_[a-z0-9_]+)?")


@dataclass(frozen=True)
class Database:
    admin_dsn: str
    name: str

    @property
    def dsn(self) -> str:
        parts = urlsplit(self.admin_dsn)
        return urlunsplit(parts._replace(path=f"/{self.name}"))

    @property
    def sqlalchemy_url(self) -> str:
        return self.dsn.replace("postgresql://", "postgresql+asyncpg://", 1)

    def _check_owned(self) -> None:
        if not OWNED_NAME.fullmatch(self.name):
            raise ValueError(f"refusing to manage database {self.name!r}: not the tool's own")

    async def recreate(self) -> None:
        self._check_owned()
        connection = await asyncpg.connect(self.admin_dsn)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            await connection.execute(f'CREATE DATABASE "{self.name}"')
        finally:
            await connection.close()

    async def drop(self) -> None:
        self._check_owned()
        connection = await asyncpg.connect(self.admin_dsn)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        finally:
            await connection.close()

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.dsn)


async def server_version(admin_dsn: str) -> str:
    connection = await asyncpg.connect(admin_dsn)
    try:
        return str(await connection.fetchval("SHOW server_version"))
    finally:
        await connection.close()


async def server_settings(admin_dsn: str) -> dict[str, str]:
    names = ("shared_buffers", "synchronous_commit", "fsync", "max_connections", "work_mem")
    connection = await asyncpg.connect(admin_dsn)
    try:
        rows = await connection.fetch(
            "SELECT name, current_setting(name) AS value FROM pg_settings "
            "WHERE name = ANY($1::text[])",
            list(names),
        )
    finally:
        await connection.close()
    return {str(row["name"]): str(row["value"]) for row in rows}


async def table_sizes(db: Database, table: str) -> dict[str, int]:
    """Bytes on disk for one table: heap, TOAST (+ free-space and visibility maps), indexes."""
    connection = await db.connect()
    try:
        row = await connection.fetchrow(
            """
            SELECT pg_total_relation_size($1::regclass) AS total,
                   pg_relation_size($1::regclass) AS heap,
                   pg_table_size($1::regclass) AS table_with_toast,
                   pg_indexes_size($1::regclass) AS indexes,
                   (SELECT count(*) FROM pg_class c WHERE c.oid = $1::regclass) AS present
            """,
            table,
        )
        rows = await connection.fetchval(f'SELECT count(*) FROM "{table}"')  # noqa: S608 (fixed names)
        database = await connection.fetchval("SELECT pg_database_size(current_database())")
    finally:
        await connection.close()
    assert row is not None
    return {
        "rows": int(rows),
        "total_bytes": int(row["total"]),
        "heap_bytes": int(row["heap"]),
        "toast_and_maps_bytes": int(row["table_with_toast"]) - int(row["heap"]),
        "index_bytes": int(row["indexes"]),
        "database_bytes": int(database),
    }


async def database_activity(db: Database) -> dict[str, int]:
    """This database's cumulative statistics (commits, rows written, blocks read)."""
    connection = await db.connect()
    try:
        row = await connection.fetchrow(
            """
            SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_returned,
                   tup_fetched, blks_read, blks_hit
            FROM pg_stat_database WHERE datname = current_database()
            """
        )
    finally:
        await connection.close()
    assert row is not None
    return {key: int(value) for key, value in dict(row).items()}
