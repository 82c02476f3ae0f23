import base64
import json

import pytest

from carevault.crypto import KeyRing, KeyRingError


def test_generated_ring_survives_json_round_trip() -> None:
    ring = KeyRing.generate().rotated()
    loaded = KeyRing.from_json(ring.to_json())
    assert loaded.active_version == 2
    assert {v: k.material for v, k in loaded.keys.items()} == {
        v: k.material for v, k in ring.keys.items()
    }
    assert loaded.blind_index_key == ring.blind_index_key


def test_rotation_adds_an_active_version_and_keeps_the_old_one() -> None:
    ring = KeyRing.generate()
    rotated = ring.rotated()
    assert rotated.active_version == ring.active_version + 1
    assert rotated.keys[1].material == ring.keys[1].material
    assert rotated.cipher_for(1) is not None
    assert rotated.active.material != ring.active.material


def test_retired_version_has_no_cipher_and_active_cannot_be_retired() -> None:
    ring = KeyRing.generate().rotated().with_retired(1)
    assert ring.cipher_for(1) is None
    assert ring.material_for(1) is None
    assert ring.cipher_for(2) is not None
    assert ring.keys[1].material is None  # retiring destroys the material
    assert "key" not in ring.to_document()["keys"][0]
    with pytest.raises(KeyRingError, match="active or pending key version cannot be retired"):
        ring.with_retired(2)


def _document() -> dict[str, object]:
    return KeyRing.generate().to_document()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema="other"), "schema"),
        (lambda d: d.update(active_version=9), "active key version 9 is not in the ring"),
        (lambda d: d["keys"][0].update(key="not base64!"), "not valid base64"),
        (lambda d: d["keys"][0].update(key=base64.b64encode(b"short").decode()), "32 bytes"),
        (lambda d: d["keys"].append(dict(d["keys"][0])), "appears twice"),
        (lambda d: d["keys"][0].update(retired=True), "retired"),
        (lambda d: d.update(blind_index_key=d["keys"][0]["key"]), "must differ"),
        (lambda d: d.pop("keys"), "malformed"),
    ],
)
def test_malformed_rings_are_refused_without_echoing_keys(mutate, message) -> None:  # type: ignore[no-untyped-def]
    document = _document()
    mutate(document)
    with pytest.raises(KeyRingError, match=message) as caught:
        KeyRing.from_document(document)
    for entry in document.get("keys", []):  # type: ignore[attr-defined]
        assert entry["key"] not in str(caught.value)


def test_invalid_json_is_refused() -> None:
    with pytest.raises(KeyRingError, match="not valid JSON"):
        KeyRing.from_json("{not json")


def test_repr_does_not_show_key_material() -> None:
    ring = KeyRing.generate()
    text = repr(ring) + repr(ring.active)
    material = ring.active.material
    assert material is not None
    assert material.hex() not in text
    assert str(material) not in text
    assert base64.b64encode(ring.blind_index_key).decode() not in text


def test_document_schema_is_what_docs_describe() -> None:
    document = json.loads(KeyRing.generate().to_json())
    assert set(document) == {"schema", "active_version", "keys", "blind_index_key", "audit_key"}
    assert set(document["keys"][0]) == {"version", "key", "created_at", "retired"}


def test_rotation_is_staged_pending_then_active_at_its_time() -> None:
    from datetime import UTC, datetime, timedelta

    ring = KeyRing.generate()
    at = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=10)
    staged = KeyRing.from_json(ring.rotated(activate_after=at).to_json())
    assert staged.pending_version == 2 and staged.active_version == 1
    assert staged.cipher_for(2) is not None  # decrypts everywhere at once
    assert staged.encryption_version() == 1
    assert staged.encryption_version(now=at.timestamp()) == 2
    assert staged.state_of(2) == "pending" and staged.state_of(1) == "active"
    with pytest.raises(KeyRingError, match="still pending"):
        staged.rotated(activate_after=at)
    with pytest.raises(KeyRingError, match="cannot be retired"):
        staged.with_retired(2)
    activated = staged.activated(2)
    assert activated.active_version == 2 and activated.pending_version is None
    assert staged.settled(now=at.timestamp() + 1).active_version == 2
    assert staged.settled().active_version == 1
