"""The test PostgreSQL server: how to reach it, admin statements, an embedded server when no
other answers, and raw SQL on an app's database. The pool of migrated databases for tests
that commit is tests.support.database_pool."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

import asyncpg

from carevault.crypto import KeyRing

LOCAL_SERVER_TCP = "postgresql://postgres@127.0.0.1:5432/postgres"
LOCAL_SOCKET_DIR = "/var/run/postgresql"


def local_server_dsns() -> list[str]:
    """Where a local server may answer, best first: its Unix socket (a round trip costs both
    sides less CPU than over TCP loopback: about 55 against 75 us here, and 30 against
    48 us for the server), then 127.0.0.1."""
    dsns = [LOCAL_SERVER_TCP]
    if Path(LOCAL_SOCKET_DIR, ".s.PGSQL.5432").exists():
        dsns.insert(0, f"postgresql://postgres@/postgres?host={LOCAL_SOCKET_DIR}")
    return dsns


IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@dataclass(frozen=True)
class PgServer:
    """How to reach the test server: libpq DSNs for admin work, SQLAlchemy URLs for the app."""

    host: str
    port: int | None
    socket_dir: str | None
    user: str
    password: str | None
    kind: str

    def dsn(self, database: str) -> str:
        credentials = f"{self.user}:{self.password}" if self.password else self.user
        if self.socket_dir:
            return f"postgresql://{credentials}@/{database}?host={self.socket_dir}"
        return f"postgresql://{credentials}@{self.host}:{self.port}/{database}"

    def url(self, database: str) -> str:
        return self.dsn(database).replace("postgresql://", "postgresql+asyncpg://", 1)


def server_from_dsn(dsn: str, kind: str) -> PgServer:
    parts = urlsplit(dsn)
    socket_dir = parse_qs(parts.query).get("host", [None])[0]
    return PgServer(
        host=parts.hostname or "",
        port=parts.port or (None if socket_dir else 5432),
        socket_dir=socket_dir,
        user=parts.username or "postgres",
        password=parts.password,
        kind=kind,
    )


async def answers(dsn: str) -> bool:
    try:
        connection = await asyncpg.connect(dsn, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await connection.close()
    return True


@contextmanager
def embedded_server(database: str) -> Iterator[str]:
    """An embedded PostgreSQL (its asyncpg URL) in a directory of its own, stopped and removed
    afterwards. Not under tmp_path: the library opens the directories above its data to its
    system user, and every pytest run of the same user (parallel runs, other checkouts) closes
    /tmp/pytest-of-<user> again, which would lock the server out of its own data."""
    from carevault.db.embedded import start_embedded, stop_embedded

    data_dir = Path(tempfile.mkdtemp(prefix="carevault-test-pg-"))
    try:
        yield start_embedded(data_dir, database=database)
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)


async def admin_execute(server: PgServer, *statements: str) -> None:
    connection = await asyncpg.connect(server.dsn("postgres"))
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


NewDatabase = Callable[[], Awaitable[str]]


class RingHolder:
    """A ring source a test can swap, the way a refresh swaps the manager's ring."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


class HasDatabase(Protocol):
    """Anything that names an app database by its SQLAlchemy URL (an ApiContext, say)."""

    @property
    def database_url(self) -> str: ...


def database_name(url: str) -> str:
    """The database a URL or DSN names (a socket URL's query holds a path: not rsplit("/"))."""
    return urlsplit(url).path.lstrip("/")


def libpq_dsn(database_url: str) -> str:
    """asyncpg's DSN for an app's SQLAlchemy URL."""
    return database_url.replace("+asyncpg", "", 1)


async def sql(app: HasDatabase, query: str, *args: object) -> list[asyncpg.Record]:
    """Rows of `query` on the app's database, on a connection of its own (outside the app)."""
    connection = await asyncpg.connect(libpq_dsn(app.database_url))
    try:
        rows: list[asyncpg.Record] = await connection.fetch(query, *args)
        return rows
    finally:
        await connection.close()
