"""Encryption benchmarks: the budget plugin, one key ring for the run, and a seeded database."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from carevault.crypto import FieldCipher, KeyRing, PhiBackend, StaticRing, install
from tests.conftest import PgServer, admin_execute
from tests.perf.plugin import RUN_FACTS, BudgetPlugin
from tests.perf.support import (
    PLAINTEXT_NOTES,
    SESSION_NOTES,
    DatabaseHarness,
    PerfDatabase,
    note_rows,
)

PLUGIN_NAME = "carevault-perf-budgets"


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(BudgetPlugin(config), PLUGIN_NAME)


@pytest.fixture(scope="session")
def perf_ring() -> KeyRing:
    """One ring for the whole run: rows sealed in one benchmark are read in another."""
    return KeyRing.generate()


@pytest.fixture
def app_backend(perf_ring: KeyRing) -> FieldCipher:
    cipher = FieldCipher(StaticRing(perf_ring))
    install(cipher, PhiBackend.AESGCM)
    return cipher


@pytest.fixture(scope="session")
async def perf_database_url(pg_server: PgServer, template_database: str) -> AsyncIterator[str]:
    """A database of its own, cloned from the migrated template, for rows that are committed."""
    name = f"cv_perf_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    yield pg_server.url(name)
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def perf_db(
    perf_database_url: str, perf_ring: KeyRing, pytestconfig: pytest.Config
) -> Iterator[PerfDatabase]:
    """100 session notes sealed by the application, and the same rows in a plaintext table."""
    harness = DatabaseHarness(perf_database_url)
    try:
        cipher = FieldCipher(StaticRing(perf_ring))
        install(cipher, PhiBackend.AESGCM)
        pytestconfig.stash.setdefault(RUN_FACTS, {})["database"] = harness.run(
            harness.server_version
        )
        harness.run(harness.create_plaintext_table)
        space, owner = harness.run(lambda: harness.create_owner("aesgcm"))
        rows = note_rows(space, owner)
        harness.run(lambda: harness.insert_notes("aesgcm", SESSION_NOTES, rows))
        harness.run(lambda: harness.insert_notes("plaintext", PLAINTEXT_NOTES, rows))
        yield PerfDatabase(harness, cipher, space, owner)
    finally:
        harness.close()
