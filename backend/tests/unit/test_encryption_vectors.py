"""The test vectors in backend/tests/data/encryption_vectors.json, checked both ways.

Sealing with the vector's fixed nonce/IV must reproduce `expected` byte for byte; opening
`expected` through FieldCipher must return the plaintext; any changed byte, another context, a
wrong, unknown or retired key must raise DecryptionError. Format-0x03 values must also fail in
another row or practice, and wrapped data keys for another practice or version. Every kind of
vector is also recomputed from the `cryptography` primitives directly, so the specification
(docs/reference/stored-format.md and key-formats.md) is checked and not only carevault.crypto.
Pure unit tests: no database.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import shutil
import struct
import subprocess
import unicodedata
import uuid
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import (
    BlindIndex,
    DecryptionError,
    FieldCipher,
    StaticRing,
    checked_e164,
    datakeys,
    envelope,
    normalize_email,
    normalize_phone_digits,
)
from carevault.crypto.blind_index import PracticeBlindIndex
from carevault.crypto.errors import UnknownKeyVersion
from carevault.crypto.keyring import KeyRing, KeyVersion
from carevault.crypto.types import EncryptedDate, EncryptedString
from carevault.db.models import Base

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS_PATH = DATA / "encryption_vectors.json"
GENERATOR_PATH = DATA / "make_encryption_vectors.py"
# The specification: the formats, the keys, and the generated vectors, on three pages.
SPEC_DIR = Path(__file__).resolve().parents[3] / "docs" / "reference"
SPEC_PAGES = tuple(
    SPEC_DIR / name for name in ("stored-format.md", "key-formats.md", "encryption-vectors.md")
)
DOC_BEGIN = "<!-- encryption-vectors:begin -->"
DOC_END = "<!-- encryption-vectors:end -->"
RING_BEGIN = "<!-- keyring-example:begin -->"
RING_END = "<!-- keyring-example:end -->"
COLUMNS_BEGIN = "<!-- encrypted-columns:begin -->"
COLUMNS_END = "<!-- encrypted-columns:end -->"
STRIP_BEGIN = "<!-- strip-characters:begin -->"
STRIP_END = "<!-- strip-characters:end -->"

VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
FIELDS: list[dict[str, Any]] = VECTORS["fields"]
BLIND: list[dict[str, Any]] = VECTORS["blind_index"]
AESGCM_FIELDS = [v for v in FIELDS if v["format"] == "aesgcm"]
CBC_FIELDS = [v for v in FIELDS if v["format"] == "pgcrypto-cbc-hmac"]
BOUND: list[dict[str, Any]] = VECTORS["bound_fields"]
WRAPS: list[dict[str, Any]] = VECTORS["data_key_wraps"]
WRAP_BY_NAME = {w["name"]: w for w in WRAPS}
PG_BOUND: list[dict[str, Any]] = VECTORS["pgcrypto_bound_fields"]
INDEX_WRAPS: list[dict[str, Any]] = VECTORS["index_key_wraps"]
INDEX_WRAP_BY_NAME = {w["name"]: w for w in INDEX_WRAPS}
PRACTICE_BLIND: list[dict[str, Any]] = VECTORS["practice_blind_index"]
NORMALIZERS = {
    "email": normalize_email,
    "phone": normalize_phone_digits,
    "phone-e164": checked_e164,
}

# Not any vector's key: used as the blind-index key of rings built here, and as a wrong key.
OTHER_KEY = bytes.fromhex("5a" * 32)
SPARE_KEY = bytes.fromhex("a5" * 32)  # an encryption key no vector uses
WHEN = datetime(2024, 1, 1, tzinfo=UTC)


def by_name(vectors: list[dict[str, Any]]) -> pytest.MarkDecorator:
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
        return envelope._seal_aesgcm_with_nonce(
            AESGCM(key),
            envelope.header(envelope.FORMAT_AESGCM, vector["key_version"]),
            plaintext,
            context,
            bytes.fromhex(vector["nonce"]),
        )
    return envelope._seal_cbc_hmac_with_iv(
        key, vector["key_version"], plaintext, context, bytes.fromhex(vector["iv"])
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
    every = [*FIELDS, *BOUND, *WRAPS, *BLIND, *PG_BOUND, *INDEX_WRAPS, *PRACTICE_BLIND]
    names = {v["name"] for v in every}
    assert len(names) == len(every), "vector names must be unique"
    nonces = [v["nonce"] for v in [*FIELDS, *BOUND, *WRAPS, *INDEX_WRAPS] if "nonce" in v]
    assert len(set(nonces)) == len(nonces), "no nonce is used twice"
    ivs = [v["iv"] for v in [*FIELDS, *PG_BOUND] if "iv" in v]
    assert len(set(ivs)) == len(ivs), "no IV is used twice"
    assert any(v["plaintext"] == "" for v in PG_BOUND)
    assert any(len(v["plaintext"].encode()) == 16 for v in PG_BOUND)  # a whole padding block
    assert any(any(ord(c) > 0xFFFF for c in v["plaintext"]) for v in PG_BOUND)
    assert any(len(v["plaintext"].encode()) >= 1000 for v in PG_BOUND)
    assert any(v["key_version"] == 2**32 - 1 for v in PG_BOUND)
    assert len({v["workspace_id"] for v in PG_BOUND}) >= 2
    for vector in PG_BOUND:
        wrap = WRAP_BY_NAME[vector["data_key_from"]]
        assert (wrap["workspace_id"], wrap["key_version"], wrap["data_key"]) == (
            vector["workspace_id"],
            vector["key_version"],
            vector["data_key"],
        )
    for vector in PRACTICE_BLIND:
        index_wrap = INDEX_WRAP_BY_NAME[vector["key_from"]]
        assert (index_wrap["workspace_id"], index_wrap["index_key"]) == (
            vector["scope"],
            vector["key"],
        )
    assert {v["kind"] for v in PRACTICE_BLIND} == {"email", "phone", "phone-e164"}
    assert len({v["scope"] for v in PRACTICE_BLIND}) >= 2
    of_bound = BOUND
    assert any(v["plaintext"] == "" for v in of_bound)
    assert any(v["plaintext"].isascii() and v["plaintext"] for v in of_bound)
    assert any(v["context"] == "clients.date_of_birth" for v in of_bound)
    assert any(any(ord(c) > 0xFFFF for c in v["plaintext"]) for v in of_bound)
    assert any(len(v["plaintext"].encode()) >= 1000 for v in of_bound)
    assert any(v["key_version"] == 2**32 - 1 for v in of_bound)
    assert len({v["workspace_id"] for v in of_bound}) >= 2
    assert len({v["row_id"] for v in of_bound}) >= 2
    for vector in BOUND:
        wrap = WRAP_BY_NAME[vector["data_key_from"]]
        assert (wrap["workspace_id"], wrap["key_version"], wrap["data_key"]) == (
            vector["workspace_id"],
            vector["key_version"],
            vector["data_key"],
        )
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
    data_keys = {w["data_key"] for w in WRAPS}
    index_keys = {w["index_key"] for w in INDEX_WRAPS}
    for vector in BLIND:
        assert vector["key"] not in seen.values()
        assert vector["key"] not in data_keys | index_keys
    assert not index_keys & (data_keys | set(seen.values()))


def test_generator_is_deterministic_and_file_is_current() -> None:
    module = generator()
    first = module.render_json(module.build())
    assert first == module.render_json(module.build())
    assert first == VECTORS_PATH.read_text(encoding="utf-8"), (
        "encryption_vectors.json is out of date: rerun make_encryption_vectors.py"
    )


def doc_block(begin: str, end: str) -> str:
    """The text between two markers, on whichever specification page holds them."""
    for page in SPEC_PAGES:
        text = page.read_text(encoding="utf-8")
        if begin in text:
            return text[text.index(begin) + len(begin) : text.index(end)].strip()
    raise AssertionError(f"{begin} is on none of {[page.name for page in SPEC_PAGES]}")


def test_vectors_in_the_doc_match_the_json() -> None:
    assert doc_block(DOC_BEGIN, DOC_END) == generator().render_markdown(VECTORS).strip(), (
        "encryption-vectors.md differs: paste `make_encryption_vectors.py --markdown`"
    )


def test_every_vector_is_written_in_full_in_the_doc() -> None:
    """A decoder can be written from the document alone: no value is only in the JSON."""
    block = doc_block(DOC_BEGIN, DOC_END).replace("\n", "")
    for vector in [*FIELDS, *BOUND, *WRAPS, *BLIND, *PG_BOUND, *INDEX_WRAPS, *PRACTICE_BLIND]:
        assert vector["expected"] in block, vector["name"]
    for vector in [*FIELDS, *BOUND, *PG_BOUND]:
        assert vector["plaintext"].encode().hex() in block or (
            vector["plaintext"].isascii() and json.dumps(vector["plaintext"]) in block
        ), vector["name"]
    for vector in BOUND:
        assert vector["associated_data"] in block and vector["data_key"] in block
    for vector in PG_BOUND:
        assert vector["bound_context"] in block and vector["data_key"] in block
    for vector in INDEX_WRAPS:
        assert vector["associated_data"] in block and vector["index_key"] in block


def test_encrypted_columns_in_the_doc_match_the_schema() -> None:
    assert doc_block(COLUMNS_BEGIN, COLUMNS_END) == (
        generator().render_columns_markdown(VECTORS).strip()
    ), "stored-format.md column list differs: paste `… --markdown columns`"


def test_encrypted_column_list_is_every_encrypted_column_of_the_models() -> None:
    """Checked against Base.metadata here, not through the generator: a new PHI column
    must appear in the JSON and the spec, with the context its column type really uses."""
    found = {}
    for table in Base.metadata.tables.values():
        for column in table.columns:
            if isinstance(column.type, EncryptedString):
                assert column.type.context == f"{table.name}.{column.name}"
                assert column.type.context_bytes == column.type.context.encode("utf-8")
                kind = "date" if isinstance(column.type, EncryptedDate) else "text"
                found[column.type.context] = (column.type.context_bytes.hex(), kind)
    listed = {c["context"]: (c["context_bytes"], c["type"]) for c in VECTORS["encrypted_columns"]}
    assert listed == found
    assert len(VECTORS["encrypted_columns"]) == len(listed)
    for table in {context.split(".")[0] for context in listed}:
        # The row binding reads these two columns of every table holding PHI.
        assert {"id", "workspace_id"} <= set(Base.metadata.tables[table].c.keys())


def test_strip_characters_in_the_doc_are_what_normalisation_strips() -> None:
    assert doc_block(STRIP_BEGIN, STRIP_END) == (
        generator().render_whitespace_markdown(VECTORS).strip()
    )
    rules = VECTORS["blind_index_normalization"]
    assert rules["unicode_version"] == unicodedata.unidata_version
    listed = {int(code.removeprefix("U+"), 16) for code in rules["strip_characters"]}
    stripped = {c for c in range(0x110000) if chr(c).strip() == ""} - {0}
    assert listed == stripped
    for code in listed:
        assert normalize_email(f"{chr(code)}A@b.example{chr(code)}") == "a@b.example"
    # Not whitespace to str.strip(), so kept (zero-width space, byte-order mark).
    for kept in ("\u200b", "\ufeff", "\u180e"):
        assert normalize_email(f"{kept}a@b.example") == f"{kept}a@b.example"


def test_keyring_example_in_the_doc_is_the_tested_one() -> None:
    block = doc_block(RING_BEGIN, RING_END)
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
    """The ring shown in key-formats.md parses with keyring.py and holds the vector keys."""
    ring = KeyRing.from_document(VECTORS["keyring"])
    assert ring.to_document() == VECTORS["keyring"]
    cipher = FieldCipher(StaticRing(ring))
    for vector in FIELDS:
        stored = bytes.fromhex(vector["expected"])
        assert cipher.decrypt(stored, vector["context"].encode()) == vector["plaintext"]
    retired = [k for k in VECTORS["keyring"]["keys"] if k["retired"]]
    assert retired, "the example ring should show a retired version"
    for entry in retired:
        assert "key" not in entry, "retiring destroys the material"
        stored = envelope.seal_aesgcm(
            AESGCM(SPARE_KEY),
            envelope.header(envelope.FORMAT_AESGCM, entry["version"]),
            b"x",
            b"t.c",
        )
        with pytest.raises(DecryptionError, match="retired"):
            cipher.decrypt(stored, b"t.c")
    for vector in BOUND:
        workspace = uuid.UUID(vector["workspace_id"]).bytes
        wrap = WRAP_BY_NAME[vector["data_key_from"]]
        cipher.data_keys.store(workspace, {wrap["key_version"]: bytes.fromhex(wrap["expected"])})
        stored = bytes.fromhex(vector["expected"])
        binding = (workspace, uuid.UUID(vector["row_id"]).bytes)
        assert cipher.open(stored, binding, vector["context"].encode()) == vector["plaintext"]


def test_example_keyring_pending_version_activates_at_its_time() -> None:
    document = VECTORS["keyring"]
    ring = KeyRing.from_document(document)
    pending = [k for k in document["keys"] if "activate_after" in k]
    assert len(pending) == 1 and ring.pending_version == pending[0]["version"]
    version: int = pending[0]["version"]
    at = datetime.fromisoformat(pending[0]["activate_after"]).timestamp()
    active = document["active_version"]
    assert ring.encryption_version(at - 1) == active
    assert ring.state_of(version, at - 1) == "pending"
    assert ring.encryption_version(at) == version
    assert ring.state_of(version, at) == "active"
    assert ring.state_of(active, at) == "decrypt-only"
    # The next write of the ring records it (what `keys rotate`/`keys activate` store).
    settled = ring.settled(at).to_document()
    assert settled["active_version"] == ring.pending_version
    assert all("activate_after" not in k for k in settled["keys"])


def test_format_01_sealing_uses_random_nonces_and_opens() -> None:
    vector = AESGCM_FIELDS[1]
    cipher = cipher_for(vector)
    ring = cipher.ring
    plaintext, context = vector["plaintext"].encode(), vector["context"].encode()
    first = envelope.seal_aesgcm(ring.active_cipher, ring.active_header, plaintext, context)
    second = envelope.seal_aesgcm(ring.active_cipher, ring.active_header, plaintext, context)
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
    normalize = NORMALIZERS[vector["kind"]]
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


def test_blind_index_message_is_kind_scope_normalized_joined_by_nul() -> None:
    for vector in BLIND:
        message = b"\x00".join(
            part.encode("utf-8") for part in (vector["kind"], vector["scope"], vector["normalized"])
        )
        assert message.hex() == vector["message"]


# Practice data keys: wrapping ----------------------------------------------------------------


def master_ring(*, retired: frozenset[int] = frozenset()) -> KeyRing:
    """Every master key the vectors use, at its version."""
    keys = {v["key_version"]: bytes.fromhex(v["key"]) for v in FIELDS}
    active = min(v for v in keys if v not in retired)
    return ring_of(keys, active, retired)


def wrap_inputs(vector: dict[str, Any]) -> tuple[bytes, int, bytes, bytes]:
    """(practice id as 16 bytes, version, data key, wrapped key)."""
    return (
        uuid.UUID(vector["workspace_id"]).bytes,
        vector["key_version"],
        bytes.fromhex(vector["data_key"]),
        bytes.fromhex(vector["expected"]),
    )


@by_name(WRAPS)
def test_wrapping_reproduces_expected(
    vector: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """datakeys.wrap_data_key itself, with its random nonce replaced by the vector's."""
    workspace, version, data_key, wrapped = wrap_inputs(vector)
    nonce = bytes.fromhex(vector["nonce"])
    monkeypatch.setattr(datakeys, "os", SimpleNamespace(urandom=lambda n: nonce[:n]))
    assert datakeys.wrap_data_key(master_ring(), workspace, version, data_key) == wrapped


@by_name(WRAPS)
def test_wrapping_from_primitives(vector: dict[str, Any]) -> None:
    workspace, version, data_key, wrapped = wrap_inputs(vector)
    master = bytes.fromhex(vector["master_key"])
    nonce = bytes.fromhex(vector["nonce"])
    associated = b"carevault/data-key/1" + workspace + struct.pack(">I", version)
    assert associated.hex() == vector["associated_data"]
    assert len(wrapped) == 12 + 32 + 16
    assert nonce + AESGCM(master).encrypt(nonce, data_key, associated) == wrapped
    assert AESGCM(master).decrypt(wrapped[:12], wrapped[12:], associated) == data_key


@by_name(WRAPS)
def test_unwrapping_returns_the_data_key(vector: dict[str, Any]) -> None:
    workspace, version, data_key, wrapped = wrap_inputs(vector)
    assert datakeys.unwrap_data_key(master_ring(), workspace, version, wrapped) == data_key
    assert bytes.fromhex(vector["master_key"]) == master_ring().material_for(version)


def test_wrapping_with_random_nonces_round_trips() -> None:
    workspace, version, data_key, wrapped = wrap_inputs(WRAPS[0])
    ring = master_ring()
    first = datakeys.wrap_data_key(ring, workspace, version, data_key)
    second = datakeys.wrap_data_key(ring, workspace, version, data_key)
    assert first != second != wrapped
    assert datakeys.unwrap_data_key(ring, workspace, version, first) == data_key


@by_name(WRAPS)
def test_wrapped_key_for_another_practice_fails(vector: dict[str, Any]) -> None:
    workspace, version, _, wrapped = wrap_inputs(vector)
    others = {w["workspace_id"] for w in WRAPS} - {vector["workspace_id"]}
    for other in [*others, str(uuid.UUID(bytes=workspace[::-1]))]:
        with pytest.raises(DecryptionError, match="failed to authenticate"):
            datakeys.unwrap_data_key(master_ring(), uuid.UUID(other).bytes, version, wrapped)


@by_name(WRAPS)
def test_wrapped_key_for_another_version_fails_even_under_the_same_master_key(
    vector: dict[str, Any],
) -> None:
    workspace, version, _, wrapped = wrap_inputs(vector)
    master = bytes.fromhex(vector["master_key"])
    other = version ^ 0x100
    ring = ring_of({version: master, other: master}, version)
    with pytest.raises(DecryptionError, match="failed to authenticate"):
        datakeys.unwrap_data_key(ring, workspace, other, wrapped)
    # And under another version's own key.
    for found in WRAPS:
        if found["key_version"] != version:
            with pytest.raises(DecryptionError):
                datakeys.unwrap_data_key(master_ring(), workspace, found["key_version"], wrapped)


@by_name(WRAPS)
def test_changed_or_resized_wrapped_key_fails(vector: dict[str, Any]) -> None:
    workspace, version, _, wrapped = wrap_inputs(vector)
    ring = master_ring()
    for position in (0, 11, 12, 43, 44, 59):
        changed = bytearray(wrapped)
        changed[position] ^= 0x01
        with pytest.raises(DecryptionError, match="failed to authenticate"):
            datakeys.unwrap_data_key(ring, workspace, version, bytes(changed))
    for resized in (wrapped[:-1], wrapped + b"\x00", b""):
        with pytest.raises(DecryptionError, match="wrong length"):
            datakeys.unwrap_data_key(ring, workspace, version, resized)


@by_name(WRAPS)
def test_unwrapping_under_an_unknown_or_retired_master_version_fails(
    vector: dict[str, Any],
) -> None:
    workspace, version, _, wrapped = wrap_inputs(vector)
    with pytest.raises(UnknownKeyVersion):
        datakeys.unwrap_data_key(ring_of({3: SPARE_KEY}, 3), workspace, version, wrapped)
    retired = ring_of(
        {version: bytes.fromhex(vector["master_key"]), 3: SPARE_KEY}, 3, frozenset({version})
    )
    with pytest.raises(DecryptionError, match="retired"):
        datakeys.unwrap_data_key(retired, workspace, version, wrapped)


# Format 0x03: sealed under a practice data key, bound to workspace, row and column ----------


def bound_inputs(vector: dict[str, Any]) -> tuple[bytes, bytes, bytes, bytes]:
    """(stored value, practice id, row id, context), ids as 16 raw bytes."""
    return (
        bytes.fromhex(vector["expected"]),
        uuid.UUID(vector["workspace_id"]).bytes,
        uuid.UUID(vector["row_id"]).bytes,
        vector["context"].encode(),
    )


def bound_cipher(*, retired: frozenset[int] = frozenset()) -> FieldCipher:
    """A FieldCipher with every master key, holding each practice's wrapped data keys as the
    database would hand them over (the wrapping vectors)."""
    cipher = FieldCipher(StaticRing(master_ring(retired=retired)))
    by_practice: dict[bytes, dict[int, bytes]] = {}
    for wrap in WRAPS:
        practice = uuid.UUID(wrap["workspace_id"]).bytes
        by_practice.setdefault(practice, {})[wrap["key_version"]] = bytes.fromhex(wrap["expected"])
    for practice, wrapped in by_practice.items():
        cipher.data_keys.store(practice, wrapped)
    return cipher


@by_name(BOUND)
def test_bound_sealing_reproduces_expected(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    head = envelope.header(envelope.FORMAT_BOUND, vector["key_version"])
    associated = envelope.bound_associated_data(head, workspace, row, context)
    assert associated.hex() == vector["associated_data"]
    sealed = envelope._seal_gcm_with_nonce(
        AESGCM(bytes.fromhex(vector["data_key"])),
        head,
        vector["plaintext"].encode(),
        associated,
        bytes.fromhex(vector["nonce"]),
    )
    assert sealed == stored


@by_name(BOUND)
def test_bound_from_primitives(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    head = struct.pack(">BI", 0x03, vector["key_version"])
    # uuid_send(): the 16 bytes of the UUID in the order it is written (RFC 4122).
    workspace = bytes.fromhex(vector["workspace_id"].replace("-", ""))
    row = bytes.fromhex(vector["row_id"].replace("-", ""))
    associated = head + workspace + row + vector["context"].encode("utf-8")
    assert associated.hex() == vector["associated_data"]
    nonce = bytes.fromhex(vector["nonce"])
    data_key = bytes.fromhex(vector["data_key"])
    plaintext = vector["plaintext"].encode("utf-8")
    assert head + nonce + AESGCM(data_key).encrypt(nonce, plaintext, associated) == stored
    assert AESGCM(data_key).decrypt(stored[5:17], stored[17:], associated) == plaintext


@by_name(BOUND)
def test_bound_data_key_comes_from_its_wrapping_vector(vector: dict[str, Any]) -> None:
    """Chained from the primitives: unwrap with the master key, then open the value."""
    wrap = WRAP_BY_NAME[vector["data_key_from"]]
    wrapped = bytes.fromhex(wrap["expected"])
    data_key = AESGCM(bytes.fromhex(wrap["master_key"])).decrypt(
        wrapped[:12], wrapped[12:], bytes.fromhex(wrap["associated_data"])
    )
    stored = bytes.fromhex(vector["expected"])
    opened = AESGCM(data_key).decrypt(
        stored[5:17], stored[17:], bytes.fromhex(vector["associated_data"])
    )
    assert opened.decode("utf-8") == vector["plaintext"]


@by_name(BOUND)
def test_bound_layout_and_length(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    assert stored[0] == vector["format_byte"] == 0x03
    assert int.from_bytes(stored[1:5], "big") == vector["key_version"]
    assert stored[5:17].hex() == vector["nonce"]
    assert len(stored) == 5 + 12 + len(vector["plaintext"].encode()) + 16
    context = vector["context"].encode()
    assert len(bytes.fromhex(vector["associated_data"])) == 5 + 16 + 16 + len(context)


@by_name(BOUND)
def test_field_cipher_opens_bound_expected(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    assert cipher.open(stored, (workspace, row), context) == vector["plaintext"]
    # As selected from the database: uuid_send(workspace_id) || uuid_send(id) || value.
    assert cipher.open_prefixed(workspace + row + stored, context) == vector["plaintext"]


def test_bound_sealing_uses_random_nonces_and_the_practice_key() -> None:
    vector = BOUND[1]
    _, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    first = cipher.seal(vector["plaintext"], (workspace, row), context)
    second = cipher.seal(vector["plaintext"], (workspace, row), context)
    assert first != second and first[5:17] != second[5:17]
    # The ring's sealing version is its active one (the lowest in master_ring()).
    assert first[:5] == envelope.header(envelope.FORMAT_BOUND, cipher.ring.encryption_version())
    assert cipher.open(first, (workspace, row), context) == vector["plaintext"]


@by_name(BOUND)
def test_bound_value_in_another_row_fails(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    other_rows = {uuid.UUID(v["row_id"]).bytes for v in BOUND} - {row}
    for other in [*other_rows, row[::-1], bytes(16)]:
        with pytest.raises(DecryptionError, match="authentication failed"):
            cipher.open(stored, (workspace, other), context)
        with pytest.raises(DecryptionError):
            cipher.open_prefixed(workspace + other + stored, context)


@by_name(BOUND)
def test_bound_value_in_another_practice_fails(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    for other in {uuid.UUID(w["workspace_id"]).bytes for w in WRAPS} - {workspace}:
        # The other practice's own data key (or none of that version) does not open it.
        with pytest.raises(DecryptionError):
            cipher.open(stored, (other, row), context)
    # Even under the same data key, the practice id in the associated data refuses it.
    data_key = AESGCM(bytes.fromhex(vector["data_key"]))
    for other in (workspace[::-1], bytes(16)):
        moved = envelope.bound_associated_data(stored[:5], other, row, context)
        with pytest.raises(InvalidTag):
            data_key.decrypt(stored[5:17], stored[17:], moved)


@by_name(BOUND)
def test_bound_value_in_another_column_fails(vector: dict[str, Any]) -> None:
    stored, workspace, row, _ = bound_inputs(vector)
    cipher = bound_cipher()
    table, column = vector["context"].split(".")
    others = [
        c["context"] for c in VECTORS["encrypted_columns"] if c["context"] != vector["context"]
    ]
    for other in [*others, f"{table}.{column}_other", vector["context"] + "\x00", ""]:
        with pytest.raises(DecryptionError, match="authentication failed"):
            cipher.open(stored, (workspace, row), other.encode())


@by_name(BOUND)
@pytest.mark.parametrize("mask", [0x01, 0x80, 0xFF])
def test_flipping_any_byte_of_a_bound_value_is_refused(vector: dict[str, Any], mask: int) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    for position in range(len(stored)):
        changed = bytearray(stored)
        changed[position] ^= mask
        with pytest.raises(DecryptionError):
            cipher.open(bytes(changed), (workspace, row), context)
            pytest.fail(f"byte {position} ^ {mask:#04x} was accepted")


@by_name(BOUND)
def test_bound_value_truncated_or_extended_is_refused(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    for changed in (stored[:1], stored[:5], stored[:32], stored[:-1], stored + b"\x00"):
        with pytest.raises(DecryptionError):
            cipher.open(changed, (workspace, row), context)
    with pytest.raises(DecryptionError, match="truncated"):
        cipher.open(stored[:32], (workspace, row), context)


@by_name(BOUND)
def test_bound_value_under_an_unknown_or_retired_version_is_refused(
    vector: dict[str, Any],
) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    version = vector["key_version"]
    missing = FieldCipher(StaticRing(ring_of({3: SPARE_KEY}, 3)))
    missing.data_keys.store(workspace, {})
    with pytest.raises(UnknownKeyVersion, match="not in the key ring"):
        missing.open(stored, (workspace, row), context)
    keys = {version: master_ring().material_for(version) or b"", 3: SPARE_KEY}
    retired = FieldCipher(StaticRing(ring_of(keys, 3, frozenset({version}))))
    wrap = WRAP_BY_NAME[vector["data_key_from"]]
    retired.data_keys.store(workspace, {version: bytes.fromhex(wrap["expected"])})
    with pytest.raises(DecryptionError, match="retired"):
        retired.open(stored, (workspace, row), context)


@by_name(BOUND)
def test_bound_value_of_a_shredded_practice_is_refused(vector: dict[str, Any]) -> None:
    """No wrapped data key (shredded, or never provisioned): nothing can open it."""
    stored, workspace, row, context = bound_inputs(vector)
    cipher = FieldCipher(StaticRing(master_ring()))
    cipher.data_keys.store(workspace, {})
    with pytest.raises(DecryptionError, match="no data key"):
        cipher.open(stored, (workspace, row), context)


@by_name(BOUND)
def test_bound_format_byte_relabelled_is_refused(vector: dict[str, Any]) -> None:
    """0x03 read as 0x01 (the master key, column-only associated data) fails too."""
    stored, workspace, row, context = bound_inputs(vector)
    for format_byte in (0x01, 0x02, 0x04):
        changed = bytes((format_byte,)) + stored[1:]
        with pytest.raises(DecryptionError):
            bound_cipher().open(changed, (workspace, row), context)


# The order of checks, as stored-format.md ("Opening a value") states it -----------------------


def test_order_of_checks_is_the_documented_one() -> None:
    vector = next(v for v in BOUND if v["key_version"] == 7)
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    unknown = (12345).to_bytes(4, "big")
    short = bytes(20)

    def refusal(value: bytes, binding: tuple[bytes, bytes] = (workspace, row)) -> str:
        with pytest.raises(DecryptionError) as caught:
            cipher.open(value, binding, context)
        return str(caught.value)

    # 1.1 before 1.2: a short 0x03 value is truncated whatever its version.
    assert "truncated" in refusal(b"\x03" + unknown + short)
    assert "truncated" in refusal(b"\x03")
    # 1.2: the version, then the practice's key.
    assert "not in the key ring" in refusal(b"\x03" + unknown + stored[5:])
    assert "no data key" in refusal(stored, (bytes(16), row))
    # 3 and 4.2: a 0x01 value's version is checked before its length.
    assert "truncated" in refusal(b"\x01" + stored[1:5] + short)
    assert "not in the key ring" in refusal(b"\x01" + unknown + short)
    # 4.1: shorter than a header.
    assert refusal(b"\x01\x00") == "stored value is truncated (no header)"
    assert refusal(b"") == "stored value is truncated (no header)"
    # 4.3: version, then length, then the MAC.
    assert "not in the key ring" in refusal(b"\x02" + unknown + short)
    assert "truncated" in refusal(b"\x02" + stored[1:5] + bytes(69))
    assert "authentication failed" in refusal(b"\x02" + stored[1:5] + bytes(64 + 16))
    # 4.4
    assert refusal(b"\x05" + stored[1:]) == "unknown format byte 0x05"
    # 5: authenticated bytes that are not UTF-8.
    data_key = AESGCM(bytes.fromhex(vector["data_key"]))
    head = stored[:5]
    not_text = envelope._seal_gcm_with_nonce(
        data_key,
        head,
        b"\xff\xfe",
        envelope.bound_associated_data(head, workspace, row, context),
        bytes(12),
    )
    assert refusal(not_text) == "decrypted bytes are not UTF-8"


def test_order_of_checks_for_format_04_is_the_documented_one() -> None:
    """Step 2 of "Opening a value": the practice's data key first, then length, MAC, text."""
    vector = next(v for v in PG_BOUND if v["key_version"] == 7)
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    unknown = (12345).to_bytes(4, "big")

    def refusal(value: bytes, binding: tuple[bytes, bytes] = (workspace, row)) -> str:
        with pytest.raises(DecryptionError) as caught:
            cipher.open(value, binding, context)
        return str(caught.value)

    # 2.1: the key comes before the length (unlike 0x03): a short value of an unknown
    # version is refused for its version, of another practice for lacking a data key.
    assert "not in the key ring" in refusal(b"\x04" + unknown + bytes(20))
    assert "no data key" in refusal(stored, (bytes(16), row))
    assert "no data key" in refusal(stored[:5] + bytes(20), (bytes(16), row))
    # 2.2, then 2.3: the length, then the MAC.
    assert "truncated" in refusal(stored[:5] + bytes(20))
    assert "truncated" in refusal(stored[:5] + bytes(69))
    assert "authentication failed" in refusal(stored[:5] + bytes(64 + 16))
    assert "authentication failed" in refusal(stored, (workspace, bytes(16)))
    # Shorter than a header: refused all the same.
    for short in (b"\x04", stored[:3]):
        refusal(short)
    # 5: authenticated bytes that are not UTF-8.
    data_key = bytes.fromhex(vector["data_key"])
    not_text = envelope.seal_cbc_hmac(
        data_key, 7, b"\xff\xfe", workspace + row + context, format_byte=0x04
    )
    assert refusal(not_text) == "decrypted bytes are not UTF-8"


class _MissingThenRefreshed:
    """A ring source that lacks a version until it is asked to refresh after a miss."""

    def __init__(self, before: KeyRing, after: KeyRing) -> None:
        self.ring = before
        self._after = after
        self.refreshes = 0

    def refresh_after_miss(self) -> bool:
        self.refreshes += 1
        self.ring = self._after
        return True


def test_an_unknown_version_refreshes_the_ring_once_and_retries() -> None:
    vector = next(v for v in AESGCM_FIELDS if v["key_version"] == 7)
    stored = bytes.fromhex(vector["expected"])
    source = _MissingThenRefreshed(
        ring_of({1: bytes(range(32))}, 1), ring_of({7: bytes.fromhex(vector["key"])}, 7)
    )
    cipher = FieldCipher(source)
    assert cipher.decrypt(stored, vector["context"].encode()) == vector["plaintext"]
    assert source.refreshes == 1
    # A retired version is not "unknown": no refresh, refused at once.
    retired = _MissingThenRefreshed(master_ring(retired=frozenset({7})), master_ring())
    with pytest.raises(DecryptionError, match="retired"):
        FieldCipher(retired).decrypt(stored, vector["context"].encode())
    assert retired.refreshes == 0


def test_an_independent_decoder_written_from_the_doc_opens_every_vector() -> None:
    """decode_from_spec.mjs reads only the specification pages and uses Node's crypto."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    result = subprocess.run(
        [node, str(DATA / "decode_from_spec.mjs"), *map(str, SPEC_PAGES)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    total = sum(map(len, (FIELDS, WRAPS, BOUND, BLIND, PG_BOUND, INDEX_WRAPS, PRACTICE_BLIND)))
    first, kms = result.stdout.strip().splitlines()
    assert first == f"{total} of {total} vectors decoded from the document alone"
    assert kms == "1 KMS layout vector(s) decoded from the document alone"


# Format 0x04: the pgcrypto construction under the practice data key, bound to the row --------


def pg_bound_context(vector: dict[str, Any]) -> bytes:
    """workspace id (16) | row id (16) | "table.column", from the UUIDs' hex digits."""
    workspace = bytes.fromhex(vector["workspace_id"].replace("-", ""))
    row = bytes.fromhex(vector["row_id"].replace("-", ""))
    context: str = vector["context"]
    return workspace + row + context.encode("utf-8")


@by_name(PG_BOUND)
def test_pgcrypto_bound_sealing_reproduces_expected(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    sealed = envelope._seal_cbc_hmac_with_iv(
        bytes.fromhex(vector["data_key"]),
        vector["key_version"],
        vector["plaintext"].encode(),
        workspace + row + context,
        bytes.fromhex(vector["iv"]),
        format_byte=envelope.FORMAT_PGCRYPTO_BOUND,
    )
    assert sealed == stored


@by_name(PG_BOUND)
def test_pgcrypto_bound_from_primitives(vector: dict[str, Any]) -> None:
    data_key = bytes.fromhex(vector["data_key"])
    iv = bytes.fromhex(vector["iv"])
    enc_key = hmac.new(data_key, b"carevault/pgcrypto/enc", hashlib.sha256).digest()
    mac_key = hmac.new(data_key, b"carevault/pgcrypto/mac", hashlib.sha256).digest()
    padder = padding.PKCS7(128).padder()
    padded = padder.update(vector["plaintext"].encode("utf-8")) + padder.finalize()
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    head = struct.pack(">BI", 0x04, vector["key_version"])
    body = head + iv + encryptor.update(padded) + encryptor.finalize()
    bound = pg_bound_context(vector)
    assert bound.hex() == vector["bound_context"]
    tag = hmac.new(mac_key, body + bound + struct.pack(">Q", len(bound)), hashlib.sha256).digest()
    assert (body + tag).hex() == vector["expected"]
    # And back: MAC first, then decrypt and unpad.
    stored = bytes.fromhex(vector["expected"])
    decryptor = Cipher(algorithms.AES(enc_key), modes.CBC(stored[5:21])).decryptor()
    opened = decryptor.update(stored[21:-32]) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    assert (unpadder.update(opened) + unpadder.finalize()).decode() == vector["plaintext"]


@by_name(PG_BOUND)
def test_pgcrypto_bound_data_key_comes_from_its_wrapping_vector(vector: dict[str, Any]) -> None:
    wrap = WRAP_BY_NAME[vector["data_key_from"]]
    wrapped = bytes.fromhex(wrap["expected"])
    data_key = AESGCM(bytes.fromhex(wrap["master_key"])).decrypt(
        wrapped[:12], wrapped[12:], bytes.fromhex(wrap["associated_data"])
    )
    assert data_key.hex() == vector["data_key"]
    stored = bytes.fromhex(vector["expected"])
    assert envelope.open_cbc_hmac(data_key, stored, pg_bound_context(vector)) == (
        vector["plaintext"].encode()
    )


@by_name(PG_BOUND)
def test_pgcrypto_bound_layout_and_length(vector: dict[str, Any]) -> None:
    stored = bytes.fromhex(vector["expected"])
    assert stored[0] == vector["format_byte"] == 0x04
    assert int.from_bytes(stored[1:5], "big") == vector["key_version"]
    assert stored[5:21].hex() == vector["iv"]
    size = len(vector["plaintext"].encode())
    assert len(stored) == 5 + 16 + (size // 16 + 1) * 16 + 32
    assert len(bytes.fromhex(vector["bound_context"])) == 32 + len(vector["context"].encode())


@by_name(PG_BOUND)
def test_field_cipher_opens_pgcrypto_bound_expected(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    assert cipher.open(stored, (workspace, row), context) == vector["plaintext"]
    assert cipher.open_prefixed(workspace + row + stored, context) == vector["plaintext"]


@by_name(PG_BOUND)
def test_pgcrypto_bound_value_moved_is_refused(vector: dict[str, Any]) -> None:
    """Another row, practice or column: the MAC covers all three."""
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    for other_row in (row[::-1], bytes(16)):
        with pytest.raises(DecryptionError, match="authentication failed"):
            cipher.open(stored, (workspace, other_row), context)
    for other in {uuid.UUID(w["workspace_id"]).bytes for w in WRAPS} - {workspace}:
        with pytest.raises(DecryptionError):
            cipher.open(stored, (other, row), context)
    data_key = bytes.fromhex(vector["data_key"])
    for other_practice in (workspace[::-1], bytes(16)):  # even under the same data key
        with pytest.raises(DecryptionError, match="authentication failed"):
            envelope.open_cbc_hmac(data_key, stored, other_practice + row + context)
    for other_context in (b"clients.email_other", context + b"\x00", b""):
        with pytest.raises(DecryptionError, match="authentication failed"):
            cipher.open(stored, (workspace, row), other_context)


@by_name(PG_BOUND)
def test_flipping_any_byte_of_a_pgcrypto_bound_value_is_refused(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    cipher = bound_cipher()
    for position in range(len(stored)):
        changed = bytearray(stored)
        changed[position] ^= 0x01
        with pytest.raises(DecryptionError):
            cipher.open(bytes(changed), (workspace, row), context)
            pytest.fail(f"byte {position} was accepted")
    for resized in (stored[:5], stored[:-1], stored[:-16], stored + b"\x00"):
        with pytest.raises(DecryptionError):
            cipher.open(resized, (workspace, row), context)


@by_name(PG_BOUND)
def test_pgcrypto_bound_value_under_an_unknown_retired_or_shredded_key_is_refused(
    vector: dict[str, Any],
) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    version = vector["key_version"]
    missing = FieldCipher(StaticRing(ring_of({3: SPARE_KEY}, 3)))
    missing.data_keys.store(workspace, {})
    with pytest.raises(UnknownKeyVersion, match="not in the key ring"):
        missing.open(stored, (workspace, row), context)
    keys = {version: master_ring().material_for(version) or b"", 3: SPARE_KEY}
    retired = FieldCipher(StaticRing(ring_of(keys, 3, frozenset({version}))))
    wrap = WRAP_BY_NAME[vector["data_key_from"]]
    retired.data_keys.store(workspace, {version: bytes.fromhex(wrap["expected"])})
    with pytest.raises(DecryptionError, match="retired"):
        retired.open(stored, (workspace, row), context)
    shredded = FieldCipher(StaticRing(master_ring()))
    shredded.data_keys.store(workspace, {})
    with pytest.raises(DecryptionError, match="no data key"):
        shredded.open(stored, (workspace, row), context)


@by_name(PG_BOUND)
def test_pgcrypto_bound_relabelled_as_another_format_is_refused(vector: dict[str, Any]) -> None:
    stored, workspace, row, context = bound_inputs(vector)
    for format_byte in (0x01, 0x02, 0x03):
        with pytest.raises(DecryptionError):
            bound_cipher().open(bytes((format_byte,)) + stored[1:], (workspace, row), context)
    # and a 0x02 value (master key, column only) relabelled 0x04 fails too
    legacy = next(v for v in CBC_FIELDS if v["key_version"] == vector["key_version"])
    relabelled = b"\x04" + bytes.fromhex(legacy["expected"])[1:]
    with pytest.raises(DecryptionError):
        bound_cipher().open(relabelled, (workspace, row), legacy["context"].encode())


# Practice blind-index keys and the indexes under them -----------------------------------------


def index_wrap_inputs(vector: dict[str, Any]) -> tuple[bytes, int, bytes, bytes]:
    """(practice id as 16 bytes, master version it is wrapped under, index key, wrapped)."""
    return (
        uuid.UUID(vector["workspace_id"]).bytes,
        vector["wrapped_under"],
        bytes.fromhex(vector["index_key"]),
        bytes.fromhex(vector["expected"]),
    )


@by_name(INDEX_WRAPS)
def test_index_key_wrapping_reproduces_expected(
    vector: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, under, index_key, wrapped = index_wrap_inputs(vector)
    nonce = bytes.fromhex(vector["nonce"])
    monkeypatch.setattr(datakeys, "os", SimpleNamespace(urandom=lambda n: nonce[:n]))
    assert datakeys.wrap_index_key(master_ring(), workspace, under, index_key) == wrapped


@by_name(INDEX_WRAPS)
def test_index_key_wrapping_from_primitives(vector: dict[str, Any]) -> None:
    workspace, under, index_key, wrapped = index_wrap_inputs(vector)
    master = bytes.fromhex(vector["master_key"])
    nonce = bytes.fromhex(vector["nonce"])
    associated = b"carevault/blind-index-key/1" + workspace + struct.pack(">I", under)
    assert associated.hex() == vector["associated_data"]
    assert len(wrapped) == 12 + 32 + 16
    assert nonce + AESGCM(master).encrypt(nonce, index_key, associated) == wrapped
    assert datakeys.unwrap_index_key(master_ring(), workspace, under, wrapped) == index_key


@by_name(INDEX_WRAPS)
def test_index_key_and_data_key_wrappings_cannot_be_swapped(vector: dict[str, Any]) -> None:
    """The labels differ: an index key never unwraps as a data key, nor the reverse."""
    workspace, under, _, wrapped = index_wrap_inputs(vector)
    with pytest.raises(DecryptionError, match="failed to authenticate"):
        datakeys.unwrap_data_key(master_ring(), workspace, under, wrapped)
    for wrap in WRAPS:
        data_workspace, version, _, data_wrapped = wrap_inputs(wrap)
        with pytest.raises(DecryptionError, match="failed to authenticate"):
            datakeys.unwrap_index_key(master_ring(), data_workspace, version, data_wrapped)


@by_name(INDEX_WRAPS)
def test_index_key_for_another_practice_or_version_fails(vector: dict[str, Any]) -> None:
    workspace, under, _, wrapped = index_wrap_inputs(vector)
    with pytest.raises(DecryptionError, match="failed to authenticate"):
        datakeys.unwrap_index_key(master_ring(), workspace[::-1], under, wrapped)
    master = bytes.fromhex(vector["master_key"])
    other = under ^ 0x100
    ring = ring_of({under: master, other: master}, under)
    with pytest.raises(DecryptionError, match="failed to authenticate"):
        datakeys.unwrap_index_key(ring, workspace, other, wrapped)
    retired = ring_of({under: master, 3: SPARE_KEY}, 3, frozenset({under}))
    with pytest.raises(DecryptionError, match="retired"):
        datakeys.unwrap_index_key(retired, workspace, under, wrapped)


def practice_index(vector: dict[str, Any]) -> PracticeBlindIndex:
    """As a request sees it: the practice's wrapped index key loaded, unwrapped on use."""
    index_wrap = INDEX_WRAP_BY_NAME[vector["key_from"]]
    workspace, under, _, wrapped = index_wrap_inputs(index_wrap)
    cipher = FieldCipher(StaticRing(master_ring()))
    cipher.data_keys.store(workspace, {}, (under, wrapped))
    return PracticeBlindIndex(cipher)


@by_name(PRACTICE_BLIND)
def test_practice_blind_index_vectors(vector: dict[str, Any]) -> None:
    index = practice_index(vector)
    computed = index.compute(vector["kind"], vector["input"], vector["scope"])
    assert computed is not None and computed.hex() == vector["expected"]
    # Search compares with both: this one, and the ring-wide index of rows not yet re-sealed.
    candidates = index.candidates(vector["kind"], vector["input"], vector["scope"])
    ring_wide = BlindIndex(StaticRing(master_ring())).compute(
        vector["kind"], vector["input"], vector["scope"]
    )
    assert candidates == [computed, ring_wide] and computed != ring_wide


@by_name(PRACTICE_BLIND)
def test_practice_blind_index_from_primitives(vector: dict[str, Any]) -> None:
    index_wrap = INDEX_WRAP_BY_NAME[vector["key_from"]]
    wrapped = bytes.fromhex(index_wrap["expected"])
    index_key = AESGCM(bytes.fromhex(index_wrap["master_key"])).decrypt(
        wrapped[:12], wrapped[12:], bytes.fromhex(index_wrap["associated_data"])
    )
    assert index_key.hex() == vector["key"]
    normalize = NORMALIZERS[vector["kind"]]
    assert normalize(vector["input"]) == vector["normalized"]
    message = "\x00".join((vector["kind"], vector["scope"], vector["normalized"])).encode()
    assert message.hex() == vector["message"]
    assert hmac.new(index_key, message, hashlib.sha256).hexdigest() == vector["expected"]


def test_practice_keys_give_unrelated_indexes_for_the_same_value() -> None:
    by_value: dict[tuple[str, str], set[str]] = {}
    for vector in [*BLIND, *PRACTICE_BLIND]:
        by_value.setdefault((vector["kind"], vector["normalized"]), set()).add(vector["expected"])
    email = by_value[("email", "jane.doe@example.com")]
    # ring-wide in two scopes, and each practice's own key: all different
    assert len(email) == 4
