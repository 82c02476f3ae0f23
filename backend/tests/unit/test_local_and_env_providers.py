import stat
import time
from pathlib import Path

import pytest

from carevault.crypto import (
    EnvironmentProvider,
    KeyRing,
    KeyRingError,
    KeyRingManager,
    KeyRingUnavailable,
    LocalFileProvider,
)


def test_local_file_is_created_on_first_use_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "keyring.json"
    ring = LocalFileProvider(path).load()
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert LocalFileProvider(path).load().active.material == ring.active.material


def test_local_file_store_replaces_atomically_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    provider = LocalFileProvider(path)
    rotated = provider.load().rotated()
    provider.store(rotated)
    assert provider.load().active_version == 2
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["keyring.json"]


def test_missing_file_without_create_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(KeyRingUnavailable, match="does not exist"):
        LocalFileProvider(tmp_path / "none.json", create_if_missing=False).load()


def test_environment_provider_reads_and_refuses_to_store() -> None:
    ring = KeyRing.generate()
    provider = EnvironmentProvider(ring.to_json())
    assert provider.load().active.material == ring.active.material
    with pytest.raises(KeyRingError, match="read-only"):
        provider.store(ring.rotated())
    with pytest.raises(KeyRingUnavailable, match="not set"):
        EnvironmentProvider(None).load()


def test_manager_keeps_cached_ring_when_refresh_fails(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    manager = KeyRingManager(LocalFileProvider(path), ttl_seconds=60)
    ring = manager.load()
    path.write_text("{broken")
    assert manager.refresh() is False
    assert manager.ring is ring
    status = manager.status()
    assert status.last_error == "the key ring is not valid JSON"
    assert status.consecutive_failures == 1
    LocalFileProvider(path).store(ring.rotated())
    assert manager.refresh() is True
    assert manager.ring.active_version == 2
    assert manager.status().last_error is None


def test_background_refresh_picks_up_a_rotation_without_restart(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    provider = LocalFileProvider(path)
    manager = KeyRingManager(provider, ttl_seconds=0.05)
    manager.start()
    try:
        provider.store(manager.ring.rotated())
        deadline = time.monotonic() + 10
        while manager.ring.active_version != 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert manager.ring.active_version == 2
        assert manager.status().versions == {1: "decrypt-only", 2: "active"}
    finally:
        manager.stop()
