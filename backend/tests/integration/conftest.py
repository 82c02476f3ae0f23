"""Fixtures shared by the integration tests: the CLI's environment and a key-lifecycle world."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.crypto import FieldCipher, LocalFileProvider, install
from carevault.db.engine import create_engine
from tests.support.db import NewDatabase, RingHolder


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> Path:
    """`carevault` commands run with `data_dir` and no database or key provider configured."""
    for name in (
        "CAREVAULT_DATABASE_URL",
        "CAREVAULT_MIGRATION_DATABASE_URL",
        "CAREVAULT_KEY_PROVIDER",
        "CAREVAULT_ENV",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CAREVAULT_DATA_DIR", str(data_dir))
    return data_dir


@pytest.fixture
async def world(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[str, AsyncEngine, RingHolder, Path]]:
    """A migrated database, a key-ring file, the cipher installed from it, CLI env set."""
    url = await new_database()
    ring_file = data_dir / "keyring.json"
    holder = RingHolder(LocalFileProvider(ring_file).load())
    install(FieldCipher(holder))
    for name in ("CAREVAULT_KEY_PROVIDER", "CAREVAULT_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CAREVAULT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", url)
    engine = create_engine(url, pool_size=2)
    try:
        yield url, engine, holder, ring_file
    finally:
        await engine.dispose()
