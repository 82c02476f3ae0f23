"""The key ring's audit key: generated, serialised, kept through rotation, and optional for
rings made before it existed."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carevault.cli import app as cli
from carevault.crypto import KeyRing, KeyRingError, LocalFileProvider


def test_a_new_ring_has_its_own_audit_key_that_survives_rotation() -> None:
    ring = KeyRing.generate()
    assert ring.audit_key is not None and len(ring.audit_key) == 32
    assert ring.audit_key not in {ring.blind_index_key, ring.active.material}
    rotated = ring.rotated().rotated().with_retired(1)
    assert rotated.audit_key == ring.audit_key
    loaded = KeyRing.from_json(rotated.to_json())
    assert loaded.audit_key == ring.audit_key
    assert "audit_key" not in repr(ring) and base64.b64encode(ring.audit_key).decode() not in repr(
        ring
    )


def test_a_ring_without_an_audit_key_still_loads() -> None:
    document = KeyRing.generate().to_document()
    del document["audit_key"]
    ring = KeyRing.from_document(document)
    assert ring.audit_key is None
    assert "audit_key" not in ring.to_document()


@pytest.mark.parametrize("problem", ["same as the blind-index key", "short"])
def test_a_bad_audit_key_is_refused(problem: str) -> None:
    ring = KeyRing.generate()
    document = ring.to_document()
    if problem == "short":
        document["audit_key"] = base64.b64encode(b"x" * 16).decode()
        message = "audit_key is not 32 bytes long"
    else:
        document["audit_key"] = document["blind_index_key"]
        message = "the audit key must differ from every other key"
    with pytest.raises(KeyRingError, match=message):
        KeyRing.from_json(json.dumps(document))


def test_keys_add_audit_key_upgrades_an_old_ring(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    old = replace(KeyRing.generate(), audit_key=None)
    LocalFileProvider(path).store(old)
    env = {"CAREVAULT_KEYRING_FILE": str(path), "CAREVAULT_KEY_PROVIDER": "local"}
    result = CliRunner().invoke(cli, ["keys", "add-audit-key"], env=env)
    assert result.exit_code == 0, result.output
    upgraded = LocalFileProvider(path).load()
    assert upgraded.audit_key is not None
    assert upgraded.keys == old.keys and upgraded.blind_index_key == old.blind_index_key
    assert base64.b64encode(upgraded.audit_key).decode() not in result.output
    again = CliRunner().invoke(cli, ["keys", "add-audit-key"], env=env)
    assert again.exit_code == 0 and "already has an audit key" in again.output
    assert LocalFileProvider(path).load().audit_key == upgraded.audit_key


def test_sealing_without_an_audit_key_says_what_to_run(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    LocalFileProvider(path).store(replace(KeyRing.generate(), audit_key=None))
    env = {
        "CAREVAULT_KEYRING_FILE": str(path),
        "CAREVAULT_KEY_PROVIDER": "local",
        "CAREVAULT_DATABASE_URL": "postgresql+asyncpg://nobody@127.0.0.1:1/none",
    }
    result = CliRunner().invoke(cli, ["audit", "seal"], env=env)
    assert result.exit_code == 2
    assert "no audit key in the key ring; run `carevault keys add-audit-key`" in result.output
