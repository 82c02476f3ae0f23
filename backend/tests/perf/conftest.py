"""Encryption benchmarks: the budget plugin, one key ring for the run, and a seeded database."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from carevault.crypto import FieldCipher, KeyRing, PhiBackend, StaticRing, envelope, install
from carevault.db.encryption import bound_rows
from carevault.notes.models import SessionNote
from tests.perf.plugin import RUN_FACTS, BudgetPlugin
from tests.perf.support import (
    BENCH_WORKSPACE,
    NOTES_PER_LOAD,
    PLAINTEXT_NOTES,
    SESSION_NOTES,
    DatabaseHarness,
    PerfDatabase,
    give_data_keys,
    note_rows,
)
from tests.support.db import PgServer, admin_execute

PLUGIN_NAME = "carevault-perf-budgets"
HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a benchmark: marked `perf`, so `-m "not perf"` leaves them out."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.perf)


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(BudgetPlugin(config), PLUGIN_NAME)


@pytest.fixture(scope="session")
def perf_ring() -> KeyRing:
    """One ring for the whole run: rows sealed in one benchmark are read in another."""
    return KeyRing.generate()


@pytest.fixture
def app_backend(perf_ring: KeyRing) -> FieldCipher:
    """The installed cipher, with the data keys of the field benchmarks' practice loaded."""
    cipher = FieldCipher(StaticRing(perf_ring))
    give_data_keys(cipher, [BENCH_WORKSPACE])
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
        sealed = bound_rows(SessionNote, rows)  # Core inserts bind every value to its row
        harness.run(lambda: harness.insert_notes("aesgcm", SESSION_NOTES, sealed))
        harness.run(lambda: harness.insert_notes("plaintext", PLAINTEXT_NOTES, rows))
        # The application backend's rows are the new format, under the practice's data key.
        bound = envelope.header(envelope.FORMAT_BOUND, perf_ring.encryption_version())
        assert harness.run(lambda: harness.stored_headers("aesgcm", space)) == {
            bound: NOTES_PER_LOAD
        }
        yield PerfDatabase(harness, cipher, space, owner)
    finally:
        harness.close()
