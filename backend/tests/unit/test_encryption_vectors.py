"""The test vectors in backend/tests/data/encryption_vectors.json, checked both ways.

Sealing with the vector's fixed nonce/IV must reproduce `expected` byte for byte; opening
`expected` through FieldCipher must return the plaintext; any changed byte, another context, a
wrong, unknown or retired key must raise DecryptionError. Some vectors are also recomputed from
the `cryptography` primitives directly, so the specification (docs/encryption.md) is checked and
not only carevault.crypto.envelope. Pure unit tests: no database, no fixtures.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.util
import json
import struct
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import (
    BlindIndex,
    DecryptionError,
    FieldCipher,
    StaticRing,
    envelope,
    normalize_email,
    normalize_phone,
)
from carevault.crypto.keyring import KeyRing, KeyVersion

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS_PATH = DATA / "encryption_vectors.json"
GENERATOR_PATH = DATA / "make_encryption_vectors.py"
DOC_PATH = Path(__file__).resolve().parents[3] / "docs" / "encryption.md"
DOC_BEGIN = "<!-- encryption-vectors:begin -->"
DOC_END = "<!-- encryption-vectors:end -->"
RING_BEGIN = "<!-- keyring-example:begin -->"
RING_END = "<!-- keyring-example:end -->"

VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
FIELDS: list[dict[str, Any]] = VECTORS["fields"]
BLIND: list[dict[str, Any]] = VECTORS["blind_index"]
AESGCM_FIELDS = [v for v in FIELDS if v["format"] == "aesgcm"]
CBC_FIELDS = [v for v in FIELDS if v["format"] == "pgcrypto-cbc-hmac"]

# Not any vector's key: used as the blind-index key of rings built here, and as a wrong key.
OTHER_KEY = bytes.fromhex("5a" * 32)
SPARE_KEY = bytes.fromhex("a5" * 32)  # an encryption key no vector uses
WHEN = datetime(2024, 1, 1, tzinfo=UTC)


def by_name(vectors: list[dict[str, Any]]) -> Any:
    return pytest.mark.parametrize("vector", vectors, ids=[v["name"] for v in vectors])


def ring_of(keys: dict[int, bytes], active: int, retired: frozenset[int] = frozenset()) -> KeyRing:
    return KeyRing(
        keys={
            version: KeyVersion(version, material, WHEN, retired=version in retired)
            for version, material in keys.items()
        },
        active_version=active,
        blind_index_key=OTHER_KEY,
    )


def cipher_for(vector: dict[str, Any]) -> FieldCipher:
    """A FieldCipher whose ring holds exactly the vector's key at the vector's version."""
    version = vector["key_version"]
    return FieldCipher(StaticRing(ring_of({version: bytes.fromhex(vector["key"])}, version)))


def seal(vector: dict[str, Any]) -> bytes:
    key = bytes.fromhex(vector["key"])
    plaintext = vector["plaintext"].encode()
    context = vector["context"].encode()
    if vector["format"] == "aesgcm":
        return envelope.seal_aesgcm(
            AESGCM(key),
            envelope.header(envelope.FORMAT_AESGCM, vector["key_version"]),
            plaintext,
            context,
            nonce=bytes.fromhex(vector["nonce"]),
        )
    return envelope.seal_cbc_hmac(
        key, vector["key_version"], plaintext, context, iv=bytes.fromhex(vector["iv"])
    )


@cache
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_encryption_vectors", GENERATOR_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The data file itself -------------------------------------------------------------------------


def test_vector_set_covers_what_the_spec_promises() -> None:
    names = {v["name"] for v in FIELDS}
    assert len(names) == len(FIELDS), "vector names must be unique"
    for fmt in ("aesgcm", "pgcrypto-cbc-hmac"):
        of_format = [v for v in FIELDS if v["format"] == fmt]
        assert any(v["plaintext"] == "" for v in of_format)
        assert any(v["plaintext"].isascii() and v["plaintext"] for v in of_format)
        assert any(any(ord(c) > 0xFFFF for c in v["plaintext"]) for v in of_format)  # emoji
        assert any(len(v["plaintext"].encode()) >= 1000 for v in of_format)
        assert any(v["key_version"] == 2**32 - 1 for v in of_format)
    assert {v["kind"] for v in BLIND} == {"email", "phone"}
    assert any(v["input"] != v["normalized"] for v in BLIND if v["kind"] == "email")
    assert any(v["input"] != v["normalized"] for v in BLIND if v["kind"] == "phone")


def test_one_key_per_version_and_blind_index_key_distinct() -> None:
    seen: dict[int, str] = {}
    for vector in FIELDS:
        assert len(bytes.fromhex(vector["key"])) == 32
        assert seen.setdefault(vector["key_version"], vector["key"]) == vector["key"]
    for vector in BLIND:
        assert vector["key"] not in seen.values()


def test_generator_is_deterministic_and_file_is_current() -> None:
    module = generator()
    first = module.render_json(module.build())
    assert first == module.render_json(module.build())
    assert first == VECTORS_PATH.read_text(encoding="utf-8"), (
        "encryption_vectors.json is out of date: rerun make_encryption_vectors.py"
    )


def test_vectors_in_the_doc_match_the_json() -> None:
    text = DOC_PATH.read_text(encoding="utf-8")
    start, end = text.index(DOC_BEGIN) + len(DOC_BEGIN), text.index(DOC_END)
    assert text[start:end].strip() == generator().render_markdown(VECTORS).strip(), (
        "docs/encryption.md vectors differ: paste `make_encryption_vectors.py --markdown`"
    )


def test_keyring_example_in_the_doc_is_the_tested_one() -> None:
    text = DOC_PATH.read_text(encoding="utf-8")
    block = text[text.index(RING_BEGIN) + len(RING_BEGIN) : text.index(RING_END)].strip()
    assert block.startswith("```json") and block.endswith("```")
    assert json.loads(block.removeprefix("```json").removesuffix("```")) == VECTORS["keyring"]


# (a) sealing reproduces the stored bytes --------------------------------------------------------


@by_name(FIELDS)
def test_sealing_reproduces_expected(vector: dict[str, Any]) -> None:
    assert seal(vector).hex() == vector["expected"]


@by_name(FIELDS)
def test_layout_and_length(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    assert stored[0] == vector["format_byte"]
    assert int.from_bytes(stored[1:5], "big") == vector["key_version"]
    size = len(vector["plaintext"].encode())
    if vector["format"] == "aesgcm":
        assert vector["format_byte"] == 0x01
        assert stored[5:17].hex() == vector["nonce"]
        assert len(stored) == 5 + 12 + size + 16
    else:
        assert vector["format_byte"] == 0x02
        assert stored[5:21].hex() == vector["iv"]
        assert len(stored) == 5 + 16 + (size // 16 + 1) * 16 + 32


# Independent recomputation from the primitives (the spec, not envelope.py) ------------------


@by_name(AESGCM_FIELDS)
def test_aesgcm_from_primitives(vector: dict[str, Any]) -> None:
    key = bytes.fromhex(vector["key"])
    nonce = bytes.fromhex(vector["nonce"])
    head = struct.pack(">BI", 0x01, vector["key_version"])
    associated = head + vector["context"].encode("utf-8")
    sealed = AESGCM(key).encrypt(nonce, vector["plaintext"].encode("utf-8"), associated)
    assert (head + nonce + sealed).hex() == vector["expected"]


@by_name(CBC_FIELDS)
def test_cbc_hmac_from_primitives(vector: dict[str, Any]) -> None:
    key = bytes.fromhex(vector["key"])
    iv = bytes.fromhex(vector["iv"])
    enc_key = hmac.new(key, b"carevault/pgcrypto/enc", hashlib.sha256).digest()
    mac_key = hmac.new(key, b"carevault/pgcrypto/mac", hashlib.sha256).digest()
    padder = padding.PKCS7(128).padder()
    padded = padder.update(vector["plaintext"].encode("utf-8")) + padder.finalize()
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    head = struct.pack(">BI", 0x02, vector["key_version"])
    body = head + iv + encryptor.update(padded) + encryptor.finalize()
    context = vector["context"].encode("utf-8")
    mac_input = body + context + len(context).to_bytes(8, "big")
    tag = hmac.new(mac_key, mac_input, hashlib.sha256).digest()
    assert (body + tag).hex() == vector["expected"]


@by_name(BLIND)
def test_blind_index_from_primitives(vector: dict[str, Any]) -> None:
    message = "\x00".join((vector["kind"], vector["scope"], vector["normalized"])).encode()
    digest = hmac.new(bytes.fromhex(vector["key"]), message, hashlib.sha256).hexdigest()
    assert digest == vector["expected"]


# (b) opening returns the plaintext ------------------------------------------------------------


@by_name(FIELDS)
def test_field_cipher_opens_expected(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    assert cipher_for(vector).decrypt(stored, vector["context"].encode()) == vector["plaintext"]


def test_one_ring_opens_every_vector_by_its_header_version() -> None:
    keys = {v["key_version"]: bytes.fromhex(v["key"]) for v in FIELDS}
    cipher = FieldCipher(StaticRing(ring_of(keys, active=max(keys))))
    for vector in FIELDS:
        stored = bytes.fromhex(vector["expected"])
        assert cipher.decrypt(stored, vector["context"].encode()) == vector["plaintext"]


def test_example_keyring_document_opens_every_vector() -> None:
    """The ring shown in docs/encryption.md parses with keyring.py and holds the vector keys."""
    ring = KeyRing.from_document(VECTORS["keyring"])
    assert ring.to_document() == VECTORS["keyring"]
    cipher = FieldCipher(StaticRing(ring))
    for vector in FIELDS:
        stored = bytes.fromhex(vector["expected"])
        assert cipher.decrypt(stored, vector["context"].encode()) == vector["plaintext"]
    retired = [k for k in VECTORS["keyring"]["keys"] if k["retired"]]
    assert retired, "the example ring should show a retired version"
    for entry in retired:
        material = base64.b64decode(entry["key"])
        stored = envelope.seal_aesgcm(
            AESGCM(material),
            envelope.header(envelope.FORMAT_AESGCM, entry["version"]),
            b"x",
            b"t.c",
        )
        with pytest.raises(DecryptionError, match="retired"):
            cipher.decrypt(stored, b"t.c")


def test_new_writes_round_trip_with_random_nonces() -> None:
    vector = AESGCM_FIELDS[1]
    cipher = cipher_for(vector)
    first = cipher.encrypt(vector["plaintext"], vector["context"].encode())
    second = cipher.encrypt(vector["plaintext"], vector["context"].encode())
    assert first != second  # fresh nonce each time
    assert first[:5] == bytes.fromhex(vector["expected"])[:5]
    assert cipher.decrypt(first, vector["context"].encode()) == vector["plaintext"]


# (c) any changed byte is refused -----------------------------------------------------------------


def tamper_positions(vector: dict[str, Any]) -> dict[str, int]:
    stored = bytes.fromhex(vector["expected"])
    n = 12 if vector["format"] == "aesgcm" else 16
    tag = 16 if vector["format"] == "aesgcm" else 32
    positions = {
        "format": 0,
        "version-first": 1,
        "version-last": 4,
        "nonce-or-iv-first": 5,
        "nonce-or-iv-last": 5 + n - 1,
        "tag-first": len(stored) - tag,
        "tag-last": len(stored) - 1,
    }
    if len(stored) - tag > 5 + n:  # there is ciphertext
        positions["ciphertext-first"] = 5 + n
        positions["ciphertext-last"] = len(stored) - tag - 1
    return positions


@by_name(FIELDS)
@pytest.mark.parametrize("mask", [0x01, 0x80, 0xFF])
def test_flipping_any_byte_is_refused(vector: dict[str, Any], mask: int) -> None:
    stored = bytes.fromhex(vector["expected"])
    cipher = cipher_for(vector)
    context = vector["context"].encode()
    for where, position in tamper_positions(vector).items():
        changed = bytearray(stored)
        changed[position] ^= mask
        with pytest.raises(DecryptionError):
            cipher.decrypt(bytes(changed), context)
            pytest.fail(f"{where} (byte {position}) ^ {mask:#04x} was accepted")


@by_name(FIELDS)
def test_header_is_authenticated_even_when_the_key_matches(vector: dict[str, Any]) -> None:
    """Relabelling the version must fail even if the new version maps to the same key."""
    stored = bytes.fromhex(vector["expected"])
    key = bytes.fromhex(vector["key"])
    version = vector["key_version"]
    relabelled = version ^ 0x100
    cipher = FieldCipher(StaticRing(ring_of({version: key, relabelled: key}, version)))
    changed = stored[:1] + relabelled.to_bytes(4, "big") + stored[5:]
    with pytest.raises(DecryptionError):
        cipher.decrypt(changed, vector["context"].encode())


@by_name(FIELDS)
def test_format_byte_swapped_between_formats_is_refused(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    swapped = bytes((0x03 - stored[0],)) + stored[1:]  # 0x01 <-> 0x02
    with pytest.raises(DecryptionError):
        cipher_for(vector).decrypt(swapped, vector["context"].encode())


@by_name(FIELDS)
def test_truncated_or_extended_is_refused(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    cipher = cipher_for(vector)
    context = vector["context"].encode()
    for changed in (b"", stored[:1], stored[:5], stored[:-1], stored[:-16], stored + b"\x00"):
        with pytest.raises(DecryptionError):
            cipher.decrypt(changed, context)


# (d) another context, key or version is refused ----------------------------------------------


@by_name(FIELDS)
def test_other_context_is_refused(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    cipher = cipher_for(vector)
    table, column = vector["context"].split(".")
    others = {
        f"{table}.{column}_other",  # same table, another column
        f"other_{table}.{column}",  # same column name, another table
        vector["context"].upper(),
        vector["context"] + "\x00",
        "",
    }
    for context in others:
        with pytest.raises(DecryptionError):
            cipher.decrypt(stored, context.encode())


@by_name(FIELDS)
def test_wrong_key_at_the_same_version_is_refused(vector: dict[str, Any]) -> None:
    version = vector["key_version"]
    cipher = FieldCipher(
        StaticRing(KeyRing({version: KeyVersion(version, bytes(32), WHEN)}, version, OTHER_KEY))
    )
    with pytest.raises(DecryptionError):
        cipher.decrypt(bytes.fromhex(vector["expected"]), vector["context"].encode())


@by_name(FIELDS)
def test_unknown_and_retired_versions_are_refused(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    context = vector["context"].encode()
    version = vector["key_version"]
    key = bytes.fromhex(vector["key"])
    other = 3 if version != 3 else 4
    missing = FieldCipher(StaticRing(ring_of({other: SPARE_KEY}, other)))
    with pytest.raises(DecryptionError, match="not in the key ring"):
        missing.decrypt(stored, context)
    retired = FieldCipher(
        StaticRing(ring_of({version: key, other: SPARE_KEY}, other, frozenset({version})))
    )
    with pytest.raises(DecryptionError, match="retired"):
        retired.decrypt(stored, context)


# Blind indexes ------------------------------------------------------------------------------------


@by_name(BLIND)
def test_blind_index_vectors(vector: dict[str, Any]) -> None:
    normalize = {"email": normalize_email, "phone": normalize_phone}[vector["kind"]]
    assert normalize(vector["input"]) == vector["normalized"]
    encryption_key = bytes(range(32)) if vector["key"] != bytes(range(32)).hex() else OTHER_KEY
    ring = KeyRing(
        keys={1: KeyVersion(1, encryption_key, WHEN)},
        active_version=1,
        blind_index_key=bytes.fromhex(vector["key"]),
    )
    index = BlindIndex(StaticRing(ring)).compute(vector["kind"], vector["input"], vector["scope"])
    assert index is not None and index.hex() == vector["expected"]


def test_blind_index_equal_within_a_scope_and_different_across_scopes() -> None:
    groups: dict[tuple[str, str, str], set[str]] = {}
    for vector in BLIND:
        key = (vector["kind"], vector["scope"], vector["normalized"])
        groups.setdefault(key, set()).add(vector["expected"])
    assert all(len(digests) == 1 for digests in groups.values())
    all_digests = [next(iter(d)) for d in groups.values()]
    assert len(set(all_digests)) == len(all_digests)
