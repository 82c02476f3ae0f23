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


def test_local_file_is_created_by_initialize_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "keyring.json"
    ring, created = LocalFileProvider(path).initialize()
    assert created and path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert LocalFileProvider(path).load().active.material == ring.active.material


def test_local_file_store_replaces_atomically_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    provider = LocalFileProvider(path)
    rotated = provider.initialize()[0].rotated()
    provider.store(rotated)
    assert provider.load().active_version == 2
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keyring.json", "keyring.json.lock"]


def test_loading_a_missing_file_is_an_error_and_never_creates_one(tmp_path: Path) -> None:
    """The old provider created a ring on load, so a deleted file was silently replaced by
    a new ring under which every stored value was unreadable."""
    path = tmp_path / "none.json"
    with pytest.raises(KeyRingUnavailable, match="does not exist"):
        LocalFileProvider(path).load()
    assert not path.exists()


def test_a_refresh_after_the_file_is_deleted_keeps_the_ring_and_creates_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "keyring.json"
    provider = LocalFileProvider(path)
    provider.initialize()
    manager = KeyRingManager(provider, ttl_seconds=60)
    ring = manager.load()
    path.unlink()
    assert manager.refresh() is False
    assert manager.ring is ring
    assert not path.exists()
    assert "does not exist" in (manager.status().last_error or "")


def test_processes_starting_together_agree_on_one_ring(tmp_path: Path) -> None:
    """Several processes initializing at once (`serve --workers N` on a first start) all end
    up with the same ring, the one on disk."""
    import multiprocessing

    path = tmp_path / "keyring.json"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        materials = pool.map(_initialize_and_report, [str(path)] * 8)
    on_disk = LocalFileProvider(path).load().active.material
    assert on_disk is not None
    assert set(materials) == {on_disk.hex()}


def _initialize_and_report(path: str) -> str:
    material = LocalFileProvider(Path(path)).initialize()[0].active.material
    assert material is not None
    return material.hex()


def test_a_refreshed_ring_that_would_strand_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    provider = LocalFileProvider(path)
    ring = provider.initialize()[0].rotated()
    provider.store(ring)
    manager = KeyRingManager(provider, ttl_seconds=60)
    ring = manager.load()
    provider.store(KeyRing.generate())  # a brand-new ring: version 1 changed, 2 dropped
    assert manager.refresh() is False
    assert manager.ring is ring
    status = manager.status()
    assert status.refused_reason and "changes key version 1" in status.refused_reason
    document = ring.to_document()
    document["blind_index_key"] = KeyRing.generate().to_document()["blind_index_key"]
    provider.store(KeyRing.from_document(document))
    assert manager.refresh() is False
    assert "blind-index key" in (manager.status().refused_reason or "")
    provider.store(ring.with_retired(1))  # retiring through the CLI is accepted
    assert manager.refresh() is True
    assert manager.status().refused_reason is None


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
    LocalFileProvider(path).initialize()
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
    provider.initialize()
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


def test_before_create_runs_only_when_a_ring_is_about_to_be_made(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    calls: list[str] = []
    LocalFileProvider(path).initialize(before_create=lambda: calls.append("asked"))
    assert calls == ["asked"]
    LocalFileProvider(path).initialize(before_create=lambda: calls.append("again"))
    assert calls == ["asked"]  # the ring exists: nothing to ask


def test_an_objection_before_create_leaves_no_ring(tmp_path: Path) -> None:
    from carevault.lifecycle.ring_guard import SealedDataWithoutRing

    def refuse() -> None:
        raise SealedDataWithoutRing("the database holds data sealed under another ring")

    path = tmp_path / "keyring.json"
    with pytest.raises(SealedDataWithoutRing):
        LocalFileProvider(path).initialize(before_create=refuse)
    assert not path.exists()


def test_development_start_passes_the_objection_through(tmp_path: Path) -> None:
    """`carevault run` creates a ring in development; the same check can stop it."""
    from carevault.config import Settings
    from carevault.lifecycle.ring_guard import SealedDataWithoutRing
    from carevault.runtime import start_key_ring

    def refuse() -> None:
        raise SealedDataWithoutRing("found sealed data")

    settings = Settings(data_dir=tmp_path)
    with pytest.raises(SealedDataWithoutRing, match="found sealed data"):
        start_key_ring(settings, create=True, before_create=refuse)
    assert not settings.resolved_keyring_file.exists()
