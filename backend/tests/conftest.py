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
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.crypto import FieldCipher, KeyRing, PhiBackend, install, uninstall
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from tests.support.database_pool import DatabasePool
from tests.support.db import (
    IN_CI,
    NewDatabase,
    PgServer,
    RingHolder,
    admin_execute,
    answers,
    embedded_server,
    local_server_dsns,
    server_from_dsn,
)

if TYPE_CHECKING:
    from tests.support.http import ApiContext

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
    carevault.auth.service.dummy_hash.cache_clear()  # what unknown emails are checked against


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    configured = os.environ.get("CAREVAULT_TEST_ADMIN_DSN", "")
    if configured and configured != "embedded":
        yield server_from_dsn(configured, "configured")
        return
    if not configured:
        for dsn in local_server_dsns():
            if asyncio.run(answers(dsn)):
                yield server_from_dsn(dsn, "local")
                return
    with embedded_server("postgres") as url:
        yield server_from_dsn(url.replace("postgresql+asyncpg://", "postgresql://", 1), "embedded")


@pytest.fixture(scope="session")
async def template_database(pg_server: PgServer) -> AsyncIterator[str]:
    """A database migrated once with `alembic upgrade head`; the pool's databases clone it."""
    name = f"cv_tpl_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine)
    finally:
        await engine.dispose()
    yield name
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
async def database_pool(pg_server: PgServer, template_database: str) -> AsyncIterator[DatabasePool]:
    pool = DatabasePool(pg_server, template_database)
    yield pool
    await pool.close()


@pytest.fixture
async def new_database(
    pg_server: PgServer, database_pool: DatabasePool
) -> AsyncIterator[NewDatabase]:
    """Factory for migrated databases holding no rows (for tests that commit): the pool's,
    reset after the test, or fresh clones of the template when a test left one unfit. An app
    the test runs on one with `running_api` gets the engine an earlier test's app left there
    (tests.support.database_pool)."""
    taken: list[str] = []

    async def make() -> str:
        taken.append(await database_pool.take())
        return pg_server.url(taken[-1])

    yield make
    for name in taken:
        await database_pool.give_back(name)


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
    # Imported here, not at the top: the xdist controller loads this file too, and the app's
    # import (a second) would delay every worker's start.
    from tests.support.http import running_api

    async with running_api(await new_database(), data_dir) as context:
        yield context
