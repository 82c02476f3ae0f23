"""The issue's original defect: a process that has not refreshed its ring meets a value sealed
under a version it lacks. It must reload the ring once, at once (rate-limited), and serve the
read, instead of answering 500 until its next scheduled refresh.

The managers here have a refresh interval of an hour, so only the miss path can load the new
version. Rings are rotated with the new version active at once: the old, unstaged behaviour.
A value of format 0x03 also needs the practice's data key of the new version, which such a
process has not loaded either: it reloads the practice's keys once (rate-limited) as well.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.crypto import (
    FieldCipher,
    KeyRing,
    KeyRingManager,
    LocalFileProvider,
    StaticRing,
    UnknownKeyVersion,
    envelope,
    new_wrapped_data_key,
)
from carevault.crypto import datakeys as datakeys_module
from carevault.crypto import manager as manager_module
from carevault.crypto.errors import MissingDataKey
from carevault.db.engine import create_engine
from carevault.workspaces.keys import provision
from carevault.workspaces.models import WorkspaceKey
from tests.support.db import NewDatabase
from tests.support.http import running_api

HOUR = 3600.0
CONTEXT = b"clients.medical_history"
WORKSPACE = uuid.uuid4().bytes
ROW = uuid.uuid4().bytes


class CountingProvider(LocalFileProvider):
    """The local file provider, counting how often the ring is read."""

    loads = 0

    def load(self) -> KeyRing:
        self.loads += 1
        return super().load()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The manager's monotonic clock, moved by hand (no test waits for the rate limit)."""
    now = [1000.0]
    monkeypatch.setattr(manager_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


def stale_manager(ring_file: Path) -> tuple[KeyRingManager, CountingProvider]:
    provider = CountingProvider(ring_file)
    manager = KeyRingManager(provider, ttl_seconds=HOUR)
    manager.load()
    return manager, provider


def rotate_file_now(ring_file: Path) -> KeyRing:
    """Another process rotates the ring, the new version active at once (no staging)."""
    provider = LocalFileProvider(ring_file)
    rotated = provider.load().rotated()
    provider.store(rotated)
    return rotated


def test_a_stale_manager_refreshes_once_on_a_bound_value_and_opens_it(
    data_dir: Path, clock: list[float]
) -> None:
    ring_file = data_dir / "keyring.json"
    manager, provider = stale_manager(ring_file)
    stale = FieldCipher(manager)
    old = manager.ring
    rotated = rotate_file_now(ring_file)
    wrapped = {v: new_wrapped_data_key(rotated, WORKSPACE, v) for v in (1, 2)}
    # The practice's data keys as the database holds them once the writer provisioned v2.
    stale.data_keys.store(WORKSPACE, wrapped)
    writer = FieldCipher(StaticRing(rotated))
    writer.data_keys.store(WORKSPACE, wrapped)
    sealed = writer.seal("Asthma since 2019", (WORKSPACE, ROW), CONTEXT)
    assert sealed[:5] == envelope.header(envelope.FORMAT_BOUND, 2)
    assert 2 not in old.keys
    loads_before = provider.loads

    assert stale.open(sealed, (WORKSPACE, ROW), CONTEXT) == "Asthma since 2019"
    assert provider.loads == loads_before + 1  # exactly one immediate reload
    assert manager.ring.cipher_for(2) is not None
    assert manager.ring.encryption_version() == 2
    # The next read needs no reload at all.
    assert stale.open(sealed, (WORKSPACE, ROW), CONTEXT) == "Asthma since 2019"
    assert provider.loads == loads_before + 1


def test_a_stale_manager_refreshes_on_a_legacy_value_too(
    data_dir: Path, clock: list[float]
) -> None:
    ring_file = data_dir / "keyring.json"
    manager, _ = stale_manager(ring_file)
    stale = FieldCipher(manager)
    rotated = rotate_file_now(ring_file)
    legacy = envelope.seal_aesgcm(
        rotated.active_cipher, rotated.active_header, b"Legacy value", CONTEXT
    )
    assert stale.decrypt(legacy, CONTEXT) == "Legacy value"
    assert manager.ring.cipher_for(2) is not None


def test_the_refresh_after_a_miss_is_rate_limited(data_dir: Path, clock: list[float]) -> None:
    ring_file = data_dir / "keyring.json"
    manager, provider = stale_manager(ring_file)
    stale = FieldCipher(manager)
    # A value under a version no ring will ever have (3): every read of it is a miss.
    ghost = KeyRing.generate().rotated().rotated()
    unknown = envelope.seal_aesgcm(ghost.active_cipher, ghost.active_header, b"x", CONTEXT)
    loads = provider.loads
    for _ in range(5):
        with pytest.raises(UnknownKeyVersion):
            stale.decrypt(unknown, CONTEXT)
    assert provider.loads == loads + 1  # one reload for five misses within the interval
    clock[0] += manager_module.MISS_REFRESH_INTERVAL_SECONDS
    with pytest.raises(UnknownKeyVersion):
        stale.decrypt(unknown, CONTEXT)
    assert provider.loads == loads + 2


async def test_a_stale_server_serves_a_row_sealed_under_a_version_it_lacks(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """Through the real request path: the server loaded ring and data keys before another
    process rotated (no staging), provisioned the new data key and saved a client under it."""
    url = await new_database()
    ring_file = data_dir / "keyring.json"
    async with running_api(url, data_dir, key_cache_ttl_seconds=HOUR) as api:
        space, (email,) = await api.workspace_with_users()
        async with api.with_token(email) as (client, _):
            created = await client.post(
                "/clients",
                json={"first_name": "Ada", "last_name": "Byron", "medical_history": "Old"},
            )
            assert created.status_code == 201, created.text
            client_id = uuid.UUID(created.json()["id"])
            assert (await client.get(f"/clients/{client_id}")).status_code == 200

            rotated = rotate_file_now(ring_file)
            engine = create_engine(url, pool_size=1)
            try:
                async with AsyncSession(engine) as db, db.begin():
                    await provision(db, rotated)
                    wrapped = dict(
                        (
                            await db.execute(
                                select(WorkspaceKey.key_version, WorkspaceKey.wrapped_key).where(
                                    WorkspaceKey.workspace_id == space.id
                                )
                            )
                        ).all()
                    )
                    writer = FieldCipher(StaticRing(rotated))
                    writer.data_keys.store(space.id.bytes, wrapped)
                    sealed = writer.seal(
                        "Sealed under version 2", (space.id.bytes, client_id.bytes), CONTEXT
                    )
                    await db.execute(
                        text("UPDATE clients SET medical_history = :v WHERE id = :id"),
                        {"v": sealed, "id": client_id},
                    )
            finally:
                await engine.dispose()

            read = await client.get(f"/clients/{client_id}")
            assert read.status_code == 200, read.text
            assert read.json()["medical_history"] == "Sealed under version 2"
            listed = await client.get("/clients")
            assert listed.status_code == 200
            assert [item["id"] for item in listed.json()["items"]] == [str(client_id)]


# The practice data key behind a 0x03 value, when this process has not loaded it -----------


class CountingLoader:
    """Stands in for the database read of a practice's wrapped keys."""

    def __init__(self, wrapped: dict[int, bytes] | Exception) -> None:
        self.wrapped = wrapped
        self.calls = 0

    def __call__(self, workspace: bytes) -> dict[int, bytes]:
        self.calls += 1
        if isinstance(self.wrapped, Exception):
            raise self.wrapped
        return dict(self.wrapped)


@pytest.fixture
def data_key_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(datakeys_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


def sealed_under_2() -> tuple[KeyRing, dict[int, bytes], bytes]:
    ring = KeyRing.generate().rotated()
    wrapped = {v: new_wrapped_data_key(ring, WORKSPACE, v) for v in (1, 2)}
    writer = FieldCipher(StaticRing(ring))
    writer.data_keys.store(WORKSPACE, wrapped)
    return ring, wrapped, writer.seal("Bound value", (WORKSPACE, ROW), CONTEXT)


def test_a_data_key_this_process_lacks_is_loaded_once_and_the_value_opens(
    data_key_clock: list[float],
) -> None:
    ring, wrapped, sealed = sealed_under_2()
    reader = FieldCipher(StaticRing(ring))
    reader.data_keys.store(WORKSPACE, {1: wrapped[1]})  # loaded before version 2's key existed
    reader.data_keys.loader = loader = CountingLoader(wrapped)
    assert reader.open(sealed, (WORKSPACE, ROW), CONTEXT) == "Bound value"
    assert reader.open(sealed, (WORKSPACE, ROW), CONTEXT) == "Bound value"
    assert loader.calls == 1


def test_the_data_key_reload_is_rate_limited_and_fails_closed(
    data_key_clock: list[float],
) -> None:
    ring, wrapped, sealed = sealed_under_2()
    reader = FieldCipher(StaticRing(ring))
    reader.data_keys.store(WORKSPACE, {1: wrapped[1]})
    # The database has no key of version 2 for this practice either (or it was shredded).
    reader.data_keys.loader = loader = CountingLoader({1: wrapped[1]})
    for _ in range(3):
        with pytest.raises(MissingDataKey):
            reader.open(sealed, (WORKSPACE, ROW), CONTEXT)
    assert loader.calls == 1
    data_key_clock[0] += datakeys_module.MISS_RELOAD_INTERVAL_SECONDS
    loader.wrapped = RuntimeError("database unreachable")
    with pytest.raises(MissingDataKey):
        reader.open(sealed, (WORKSPACE, ROW), CONTEXT)
    assert loader.calls == 2


def test_keys_never_loaded_are_not_fetched_behind_the_callers_back() -> None:
    ring, wrapped, sealed = sealed_under_2()
    reader = FieldCipher(StaticRing(ring))
    reader.data_keys.loader = loader = CountingLoader(wrapped)
    with pytest.raises(MissingDataKey):
        reader.open(sealed, (WORKSPACE, ROW), CONTEXT)
    assert loader.calls == 0
