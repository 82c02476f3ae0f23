"""Shared fixtures: a real PostgreSQL (the local server when it answers, else an embedded one
the tests start), schemas built by `alembic upgrade head`, and an installed key ring.

Environment:
- CAREVAULT_TEST_ADMIN_DSN: use this server instead (postgresql://user@host:port/postgres),
  or `embedded` to skip the local server and start an embedded one.
- CI (set by CI systems): tests that need pgcrypto fail instead of skipping.
- CAREVAULT_TEST_FAST_HASHING=1 (set by `make test-fast`): password hashing at argon2id's
  lowest cost.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.crypto import FieldCipher, KeyRing, PhiBackend, install, uninstall
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from tests.api_support import ApiContext

# boto3 needs credentials and a region even for a local endpoint; never real ones in tests.
for _name, _value in {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}.items():
    os.environ[_name] = _value
for _name in ("AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
    os.environ.pop(_name, None)

if os.environ.get("CAREVAULT_TEST_FAST_HASHING") == "1":
    # `make test-fast`: argon2id at its lowest cost (about 1 ms a hash instead of 0.1-0.4 s;
    # sign-ins are most of the API tests' CPU). `make test` keeps the production cost.
    from argon2 import PasswordHasher

    import carevault.auth.passwords
    import carevault.auth.service

    carevault.auth.passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    if hasattr(carevault.auth.service, "_DUMMY_HASH"):  # what unknown emails are checked against
        carevault.auth.service._DUMMY_HASH = carevault.auth.passwords.hash_password("dummy")

LOCAL_SERVER_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
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


def _from_dsn(dsn: str, kind: str) -> PgServer:
    from urllib.parse import parse_qs, urlsplit

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


async def _answers(dsn: str) -> bool:
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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    configured = os.environ.get("CAREVAULT_TEST_ADMIN_DSN", "")
    if configured and configured != "embedded":
        yield _from_dsn(configured, "configured")
        return
    if not configured and asyncio.run(_answers(LOCAL_SERVER_DSN)):
        yield _from_dsn(LOCAL_SERVER_DSN, "local")
        return
    with embedded_server("postgres") as url:
        yield _from_dsn(url.replace("postgresql+asyncpg://", "postgresql://", 1), "embedded")


async def admin_execute(server: PgServer, *statements: str) -> None:
    connection = await asyncpg.connect(server.dsn("postgres"))
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(scope="session")
async def template_database(pg_server: PgServer) -> AsyncIterator[str]:
    """A database migrated once with `alembic upgrade head`; per-test copies clone it."""
    name = f"cv_tpl_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine)
    finally:
        await engine.dispose()
    yield name
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


NewDatabase = Callable[[], Awaitable[str]]


class DatabasePool:
    """Fresh migrated databases for tests that commit. The next one is cloned from the template
    while a test runs, and used ones are dropped in the background: a drop waits for a
    checkpoint, which drops running together share. In threads with their own event loops,
    since the tests' loop stands still between async tests."""

    def __init__(self, server: PgServer, template: str) -> None:
        self.server = server
        self.template = template
        self.threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="test-databases")
        self.next: Future[str] | None = None
        self.drops: list[Future[None]] = []

    def _create(self) -> str:
        name = f"cv_test_{uuid.uuid4().hex[:10]}"
        statement = f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'
        asyncio.run(admin_execute(self.server, statement))
        return name

    async def take(self) -> str:
        ready = self.next or self.threads.submit(self._create)
        self.next = self.threads.submit(self._create)
        return await asyncio.wrap_future(ready)

    def drop(self, name: str) -> None:
        statement = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        self.drops.append(self.threads.submit(asyncio.run, admin_execute(self.server, statement)))

    def close(self) -> None:
        """Drop the unused clone and wait for every drop; raise the first error, if any."""
        if self.next is not None:
            self.drop(self.next.result())
        self.threads.shutdown(wait=True)
        for drop in self.drops:
            drop.result()


@pytest.fixture(scope="session")
def database_pool(pg_server: PgServer, template_database: str) -> Iterator[DatabasePool]:
    pool = DatabasePool(pg_server, template_database)
    yield pool
    pool.close()


@pytest.fixture
async def new_database(
    pg_server: PgServer, database_pool: DatabasePool
) -> AsyncIterator[NewDatabase]:
    """Factory for fresh migrated databases (for tests that commit); dropped afterwards."""
    created: list[str] = []

    async def make() -> str:
        created.append(await database_pool.take())
        return pg_server.url(created[-1])

    yield make
    for name in created:
        database_pool.drop(name)


@pytest.fixture(scope="session")
async def shared_database_url(pg_server: PgServer, template_database: str) -> AsyncIterator[str]:
    name = f"cv_shared_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    yield pg_server.url(name)
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(autouse=True)
def _fresh_encryption_state() -> Iterator[None]:
    """No test inherits another's installed cipher or PHI backend."""
    yield
    uninstall()


class RingHolder:
    """A ring source a test can swap, the way a refresh swaps the manager's ring."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


@pytest.fixture
def ring_holder() -> Iterator[RingHolder]:
    holder = RingHolder(KeyRing.generate())
    install(FieldCipher(holder), PhiBackend.AESGCM)
    yield holder
    uninstall()


@pytest.fixture(scope="session")
async def engine(shared_database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(shared_database_url, pool_size=5)
    yield engine
    await engine.dispose()


@pytest.fixture
async def db(engine: AsyncEngine, ring_holder: RingHolder) -> AsyncIterator[AsyncSession]:
    """A session inside a transaction that is rolled back after the test."""
    async with engine.connect() as connection:
        transaction = await connection.begin()
        session = AsyncSession(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            yield session
        finally:
            await session.close()
            await transaction.rollback()


@pytest.fixture
async def require_pgcrypto(engine: AsyncEngine) -> None:
    from carevault.runtime import pgcrypto_available

    if not await pgcrypto_available(engine):
        message = "this PostgreSQL server does not offer pgcrypto (Debian: postgresql-contrib)"
        if IN_CI:
            pytest.fail(f"pgcrypto is required in CI: {message}")
        pytest.skip(message)


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """A Secrets Manager endpoint: moto in server mode on loopback, spoken to over HTTP."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory with a local key ring, as `carevault keys init` leaves it."""
    from carevault.crypto import LocalFileProvider

    path = tmp_path / "data"
    path.mkdir()
    LocalFileProvider(path / "keyring.json").initialize()
    return path


@pytest.fixture
async def api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """The app with its real lifespan on a fresh migrated database."""
    from tests.api_support import running_api

    async with running_api(await new_database(), data_dir) as context:
        yield context
