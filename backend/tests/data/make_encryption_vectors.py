"""Generate encryption_vectors.json: test vectors for the stored format of encrypted fields.

    .venv/bin/python backend/tests/data/make_encryption_vectors.py            # (re)write JSON
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --check    # verify it
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --markdown # doc: vectors
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --markdown columns
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --markdown whitespace

The vectors go to docs/reference/encryption-vectors.md, the columns and the whitespace list to
docs/reference/stored-format.md.

Every key, nonce and IV here is a fixed, obviously fake byte pattern, so the output is
deterministic. Never use these keys for anything else. The format is specified in
docs/reference/stored-format.md and key-formats.md; the vectors are listed in
docs/reference/encryption-vectors.md; backend/tests/unit/test_encryption_vectors.py checks the
vectors both ways (sealing reproduces them, opening returns the plaintext) and independently
of carevault.crypto.envelope.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import struct
import sys
import unicodedata
import uuid
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import datakeys, envelope
from carevault.crypto.blind_index import checked_e164, normalize_email, normalize_phone_digits

HERE = Path(__file__).resolve().parent
JSON_PATH = HERE / "encryption_vectors.json"

FORMAT_NAMES = {
    envelope.FORMAT_AESGCM: "aesgcm",
    envelope.FORMAT_PGCRYPTO: "pgcrypto-cbc-hmac",
    envelope.FORMAT_BOUND: "aesgcm-bound",
    envelope.FORMAT_PGCRYPTO_BOUND: "pgcrypto-bound",
}
MAX_VERSION = 4294967295

# Fake master keys: byte ranges, recognisable at a glance in hex.
KEYS: dict[int, bytes] = {
    1: bytes(range(0x00, 0x20)),  # 000102…1f
    7: bytes(range(0x20, 0x40)),  # 202122…3f
    MAX_VERSION: bytes(range(0xFF, 0xDF, -1)),  # fffefd…e0 (largest possible version)
}
RETIRED_VERSION = 2  # in the example ring only: retired, so listed without key material
BLIND_INDEX_KEY = bytes(range(0x40, 0x60))  # 404142…5f, differs from every encryption key
CREATED_AT = {
    1: "2024-01-01T00:00:00+00:00",
    RETIRED_VERSION: "2024-04-01T00:00:00+00:00",
    7: "2024-07-01T00:00:00+00:00",
    MAX_VERSION: "2024-10-01T00:00:00+00:00",
}
ACTIVE_VERSION = 7
# The example ring's pending version and when it activates (created_at + 360 s, what
# `keys rotate` sets with the default 300 s refresh interval and 30 s margin).
PENDING_VERSION = MAX_VERSION
ACTIVATE_AFTER = "2024-10-01T00:06:00+00:00"

SCOPE_A = "11111111-1111-4111-8111-111111111111"  # a workspace id (fake)
SCOPE_B = "22222222-2222-4222-8222-222222222222"  # another workspace

# Format 0x03: practices and rows. Asymmetric UUIDs, so a decoder that gets the byte order
# of the 16 raw bytes wrong fails every vector.
WORKSPACE_A = "a1b2c3d4-e5f6-4789-8abc-def012345678"
WORKSPACE_B = "b2c3d4e5-f6a7-4890-9bcd-ef0123456789"
ROW_1 = "01234567-89ab-4cde-8f01-23456789abcd"
ROW_2 = "fedcba98-7654-4321-8fed-cba987654321"
ROW_3 = "0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e"
# Fake practice data keys, one per (practice, master version); each is wrapped by the master
# key of the same version in DATA_KEY_WRAPS below.
DATA_KEYS: dict[tuple[str, int], bytes] = {
    (WORKSPACE_A, 1): bytes(range(0x80, 0xA0)),  # 808182…9f
    (WORKSPACE_A, 7): bytes(range(0xA0, 0xC0)),  # a0a1a2…bf
    (WORKSPACE_A, MAX_VERSION): bytes(range(0xC0, 0xE0)),  # c0c1c2…df
    (WORKSPACE_B, 7): bytes(range(0x9F, 0x7F, -1)),  # 9f9e9d…80
}

# Fake practice blind-index keys, each wrapped under one master version (INDEX_KEY_WRAPS):
# practice A's already rewrapped under the active version 7, practice B's still under 1.
INDEX_KEYS: dict[tuple[str, int], bytes] = {
    (WORKSPACE_A, 7): bytes(range(0x60, 0x80)),  # 606162…7f
    (WORKSPACE_B, 1): bytes(range(0x7F, 0x5F, -1)),  # 7f7e7d…60
}

UNICODE_TEXT = "Zoë Ødegård-Núñez 山田 太郎 🙂🩺"
SIXTEEN_BYTES = "Pays by card.OK!"  # exactly one AES block: CBC adds a whole padding block


def long_text() -> str:
    """A fake ~1 KB session note with newlines and a few non-ASCII characters."""
    lines = [
        f"{n:02d}. Client reports sleeping {5 + n % 4} h; mood {n % 10}/10; café visits — ok."
        for n in range(1, 17)
    ]
    return "\n".join(lines) + "\n"


def nonce(n: int) -> bytes:
    return bytes.fromhex("f0f1f2f3f4f5f6f7") + n.to_bytes(4, "big")


def iv(n: int) -> bytes:
    return bytes.fromhex("a0a1a2a3a4a5a6a7a8a9aaab") + n.to_bytes(4, "big")


def wrap_nonce(n: int) -> bytes:
    return bytes.fromhex("e0e1e2e3e4e5e6e7") + n.to_bytes(4, "big")


# (name, format, key version, context, plaintext)
FIELD_CASES: list[tuple[str, int, int, str, str]] = [
    ("aesgcm-empty", envelope.FORMAT_AESGCM, 1, "clients.notes", ""),
    ("aesgcm-ascii", envelope.FORMAT_AESGCM, 1, "clients.first_name", "Jordan"),
    ("aesgcm-date", envelope.FORMAT_AESGCM, 7, "clients.date_of_birth", "1984-02-29"),
    ("aesgcm-unicode", envelope.FORMAT_AESGCM, 7, "clients.last_name", UNICODE_TEXT),
    ("aesgcm-long", envelope.FORMAT_AESGCM, 7, "sessions.subjective", long_text()),
    (
        "aesgcm-max-version",
        envelope.FORMAT_AESGCM,
        MAX_VERSION,
        "clients.email",
        "jordan.example@example.org",
    ),
    ("pgcrypto-empty", envelope.FORMAT_PGCRYPTO, 1, "clients.notes", ""),
    ("pgcrypto-ascii", envelope.FORMAT_PGCRYPTO, 1, "clients.first_name", "Jordan"),
    ("pgcrypto-one-block", envelope.FORMAT_PGCRYPTO, 7, "clients.notes", SIXTEEN_BYTES),
    ("pgcrypto-unicode", envelope.FORMAT_PGCRYPTO, 7, "clients.last_name", UNICODE_TEXT),
    ("pgcrypto-long", envelope.FORMAT_PGCRYPTO, 7, "sessions.subjective", long_text()),
    (
        "pgcrypto-max-version",
        envelope.FORMAT_PGCRYPTO,
        MAX_VERSION,
        "clients.phone",
        "+1 (555) 010-0199",
    ),
]

# Format 0x03: (name, key version, workspace id, row id, context, plaintext). Numbered on
# from FIELD_CASES, so no nonce repeats across the whole file.
BOUND_CASES: list[tuple[str, int, str, str, str, str]] = [
    ("bound-empty", 1, WORKSPACE_A, ROW_1, "clients.notes", ""),
    ("bound-ascii", 7, WORKSPACE_A, ROW_1, "clients.first_name", "Jordan"),
    ("bound-date", 7, WORKSPACE_A, ROW_1, "clients.date_of_birth", "1984-02-29"),
    ("bound-unicode", 7, WORKSPACE_A, ROW_2, "clients.last_name", UNICODE_TEXT),
    ("bound-long", 7, WORKSPACE_A, ROW_3, "sessions.subjective", long_text()),
    (
        "bound-max-version",
        MAX_VERSION,
        WORKSPACE_A,
        ROW_1,
        "clients.email",
        "jordan.example@example.org",
    ),
    ("bound-other-workspace", 7, WORKSPACE_B, ROW_2, "clients.first_name", "Jordan"),
]

# Format 0x04: (name, key version, workspace id, row id, context, plaintext). IVs numbered on
# from the other field vectors.
PGCRYPTO_BOUND_CASES: list[tuple[str, int, str, str, str, str]] = [
    ("pgbound-empty", 1, WORKSPACE_A, ROW_1, "clients.notes", ""),
    ("pgbound-ascii", 7, WORKSPACE_A, ROW_1, "clients.first_name", "Jordan"),
    ("pgbound-one-block", 7, WORKSPACE_A, ROW_2, "clients.notes", SIXTEEN_BYTES),
    ("pgbound-unicode", 7, WORKSPACE_A, ROW_2, "clients.last_name", UNICODE_TEXT),
    ("pgbound-long", 7, WORKSPACE_A, ROW_3, "sessions.subjective", long_text()),
    (
        "pgbound-max-version",
        MAX_VERSION,
        WORKSPACE_A,
        ROW_1,
        "clients.phone",
        "+1 (555) 010-0199",
    ),
    ("pgbound-other-workspace", 7, WORKSPACE_B, ROW_2, "clients.first_name", "Jordan"),
]

# (name, kind, scope, input value)
BLIND_INDEX_CASES: list[tuple[str, str, str, str]] = [
    ("email-plain", "email", SCOPE_A, "jane.doe@example.com"),
    ("email-spaces-capitals", "email", SCOPE_A, "  Jane.Doe@Example.COM\t"),
    ("email-fullwidth-nfkc", "email", SCOPE_A, "Ｊａｎｅ.Ｄｏｅ@example.com"),
    # NBSP and ideographic space fold to U+0020 under NFKC; U+0085, U+2029 and U+001F are
    # stripped as they are (all are whitespace to str.strip()).
    (
        "email-unicode-whitespace",
        "email",
        SCOPE_A,
        "\u3000\u00a0Jane.Doe@example.com\u2029\u0085\u001f",
    ),
    # str.lower() is the full Unicode mapping: U+0130 becomes "i" + U+0307 (two characters).
    ("email-full-lowercase", "email", SCOPE_A, "İLKER@ÖRNEK.TR"),
    # ... with the final-sigma rule: a capital sigma ending a word becomes U+03C2.
    ("email-final-sigma", "email", SCOPE_A, "ΟΔΟΣ@ΠΑΡΑΔΕΙΓΜΑ.ΕΛ"),
    ("email-other-workspace", "email", SCOPE_B, "jane.doe@example.com"),
    ("phone-punctuation", "phone", SCOPE_A, "+1 (555) 010-0199"),
    ("phone-dots", "phone", SCOPE_A, "1.555.010.0199"),
    # Full-width digits fold to ASCII under NFKC; Arabic-Indic digits are kept as they are.
    ("phone-fullwidth-and-arabic-indic", "phone", SCOPE_A, "＋１ (５５５) ٠١٠"),
    ("phone-other-workspace", "phone", SCOPE_B, "+1 (555) 010-0199"),
]

# Under a practice's own blind-index key: (name, kind, workspace id = scope, input value).
PRACTICE_BLIND_INDEX_CASES: list[tuple[str, str, str, str]] = [
    ("practice-email-a", "email", WORKSPACE_A, "  Jane.Doe@Example.COM"),
    ("practice-phone-a", "phone", WORKSPACE_A, "+1 (555) 010-0199"),
    ("practice-email-b", "email", WORKSPACE_B, "jane.doe@example.com"),
    # Since migration 0016: the number in E.164 form, as the application reads it.
    ("practice-phone-e164-a", "phone-e164", WORKSPACE_A, "+15550100199"),
    ("practice-phone-e164-b", "phone-e164", WORKSPACE_B, "+442079460018"),
]

NORMALIZERS = {
    "email": normalize_email,
    "phone": normalize_phone_digits,
    "phone-e164": checked_e164,
}


def field_vector(
    n: int, name: str, fmt: int, version: int, context: str, text: str
) -> dict[str, Any]:
    key = KEYS[version]
    vector: dict[str, Any] = {
        "name": name,
        "format": FORMAT_NAMES[fmt],
        "format_byte": fmt,
        "key": key.hex(),
        "key_version": version,
    }
    if fmt == envelope.FORMAT_AESGCM:
        vector["nonce"] = nonce(n).hex()
        sealed = envelope._seal_aesgcm_with_nonce(
            AESGCM(key),
            envelope.header(envelope.FORMAT_AESGCM, version),
            text.encode(),
            context.encode(),
            nonce(n),
        )
    else:
        vector["iv"] = iv(n).hex()
        sealed = envelope._seal_cbc_hmac_with_iv(
            key, version, text.encode(), context.encode(), iv(n)
        )
    vector.update(context=context, plaintext=text, expected=sealed.hex())
    return vector


def wrap_name(workspace: str, version: int) -> str:
    practice = "a" if workspace == WORKSPACE_A else "b"
    return f"data-key-{practice}-v{version}"


def wrap_vector(n: int, workspace: str, version: int) -> dict[str, Any]:
    """A practice data key wrapped by the master key of its version (datakeys.py)."""
    practice = uuid.UUID(workspace).bytes
    data_key = DATA_KEYS[(workspace, version)]
    associated = datakeys.WRAP_LABEL + practice + struct.pack(">I", version)
    wrapped = wrap_nonce(n) + AESGCM(KEYS[version]).encrypt(wrap_nonce(n), data_key, associated)
    return {
        "name": wrap_name(workspace, version),
        "master_key": KEYS[version].hex(),
        "key_version": version,
        "workspace_id": workspace,
        "data_key": data_key.hex(),
        "nonce": wrap_nonce(n).hex(),
        "associated_data": associated.hex(),
        "expected": wrapped.hex(),
    }


def bound_vector(
    n: int, name: str, version: int, workspace: str, row: str, context: str, text: str
) -> dict[str, Any]:
    head = envelope.header(envelope.FORMAT_BOUND, version)
    associated = envelope.bound_associated_data(
        head, uuid.UUID(workspace).bytes, uuid.UUID(row).bytes, context.encode()
    )
    data_key = DATA_KEYS[(workspace, version)]
    sealed = envelope._seal_gcm_with_nonce(
        AESGCM(data_key), head, text.encode(), associated, nonce(n)
    )
    return {
        "name": name,
        "format": FORMAT_NAMES[envelope.FORMAT_BOUND],
        "format_byte": envelope.FORMAT_BOUND,
        "data_key": data_key.hex(),
        "data_key_from": wrap_name(workspace, version),
        "key_version": version,
        "workspace_id": workspace,
        "row_id": row,
        "nonce": nonce(n).hex(),
        "context": context,
        "plaintext": text,
        "associated_data": associated.hex(),
        "expected": sealed.hex(),
    }


def pgcrypto_bound_vector(
    n: int, name: str, version: int, workspace: str, row: str, context: str, text: str
) -> dict[str, Any]:
    """Format 0x04: 0x02's construction under the practice data key, the row ids first in
    the MAC's context (what carevault_pgc_seal_bound computes)."""
    bound_context = uuid.UUID(workspace).bytes + uuid.UUID(row).bytes + context.encode()
    data_key = DATA_KEYS[(workspace, version)]
    sealed = envelope._seal_cbc_hmac_with_iv(
        data_key,
        version,
        text.encode(),
        bound_context,
        iv(n),
        format_byte=envelope.FORMAT_PGCRYPTO_BOUND,
    )
    return {
        "name": name,
        "format": FORMAT_NAMES[envelope.FORMAT_PGCRYPTO_BOUND],
        "format_byte": envelope.FORMAT_PGCRYPTO_BOUND,
        "data_key": data_key.hex(),
        "data_key_from": wrap_name(workspace, version),
        "key_version": version,
        "workspace_id": workspace,
        "row_id": row,
        "iv": iv(n).hex(),
        "context": context,
        "plaintext": text,
        "bound_context": bound_context.hex(),
        "expected": sealed.hex(),
    }


def index_wrap_name(workspace: str, under: int) -> str:
    practice = "a" if workspace == WORKSPACE_A else "b"
    return f"index-key-{practice}-under-v{under}"


def index_wrap_vector(n: int, workspace: str, under: int) -> dict[str, Any]:
    """A practice blind-index key wrapped under a master version (datakeys.wrap_index_key)."""
    practice = uuid.UUID(workspace).bytes
    index_key = INDEX_KEYS[(workspace, under)]
    associated = datakeys.INDEX_WRAP_LABEL + practice + struct.pack(">I", under)
    wrapped = wrap_nonce(n) + AESGCM(KEYS[under]).encrypt(wrap_nonce(n), index_key, associated)
    return {
        "name": index_wrap_name(workspace, under),
        "master_key": KEYS[under].hex(),
        "wrapped_under": under,
        "workspace_id": workspace,
        "index_key": index_key.hex(),
        "nonce": wrap_nonce(n).hex(),
        "associated_data": associated.hex(),
        "expected": wrapped.hex(),
    }


def practice_blind_index_vector(name: str, kind: str, workspace: str, value: str) -> dict[str, Any]:
    ((_, under), key) = next(item for item in INDEX_KEYS.items() if item[0][0] == workspace)
    vector = blind_index_vector(name, kind, workspace, value, key)
    vector["key_from"] = index_wrap_name(workspace, under)
    return vector


def blind_index_vector(
    name: str, kind: str, scope: str, value: str, key: bytes = BLIND_INDEX_KEY
) -> dict[str, Any]:
    normalized = NORMALIZERS[kind](value)
    message = b"\x00".join((kind.encode(), scope.encode(), normalized.encode()))
    # Computed with the bare primitive; the tests compare carevault's BlindIndex against it.
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return {
        "name": name,
        "key": key.hex(),
        "kind": kind,
        "scope": scope,
        "input": value,
        "normalized": normalized,
        "message": message.hex(),
        "expected": digest.hex(),
    }


def example_keyring() -> dict[str, Any]:
    """The ring every vector opens under, in the carevault.keyring/1 schema (keyring.py):
    version 7 active, 1 decrypt-only, 2 retired (no material), the largest version pending."""
    keys: list[dict[str, Any]] = []
    for version in sorted({*KEYS, RETIRED_VERSION}):
        entry: dict[str, Any] = {"version": version, "created_at": CREATED_AT[version]}
        if version in KEYS:
            entry["key"] = base64.b64encode(KEYS[version]).decode()
        entry["retired"] = version == RETIRED_VERSION
        if version == PENDING_VERSION:
            entry["activate_after"] = ACTIVATE_AFTER
        keys.append(entry)
    return {
        "schema": "carevault.keyring/1",
        "active_version": ACTIVE_VERSION,
        "keys": keys,
        "blind_index_key": base64.b64encode(BLIND_INDEX_KEY).decode(),
    }


def encrypted_columns() -> list[dict[str, Any]]:
    """Every encrypted column of the schema, with the exact context bytes of its values."""
    from carevault.crypto.types import EncryptedDate, EncryptedString
    from carevault.db.models import Base

    found = []
    for table in sorted(Base.metadata.tables.values(), key=lambda t: t.name):
        for column in table.columns:
            if isinstance(column.type, EncryptedString):
                context = f"{table.name}.{column.name}"
                found.append(
                    {
                        "context": context,
                        "context_bytes": context.encode().hex(),
                        "type": "date" if isinstance(column.type, EncryptedDate) else "text",
                    }
                )
    return found


def strip_characters() -> list[str]:
    """What str.strip() removes (str.isspace()), as U+XXXX."""
    return [f"U+{c:04X}" for c in range(0x110000) if chr(c).isspace()]


def build() -> dict[str, Any]:
    bound_start = len(FIELD_CASES) + 1
    pgbound_start = bound_start + len(BOUND_CASES)
    index_wrap_start = len(DATA_KEYS) + 1
    return {
        "description": (
            "Test vectors for CareVault encrypted fields, practice data keys and blind "
            "indexes. Specification: docs/reference/stored-format.md. Generated by "
            "backend/tests/data/make_encryption_vectors.py; checked by "
            "backend/tests/unit/test_encryption_vectors.py. All keys are fake."
        ),
        "fields": [field_vector(n, *case) for n, case in enumerate(FIELD_CASES, start=1)],
        "data_key_wraps": [
            wrap_vector(n, workspace, version)
            for n, (workspace, version) in enumerate(DATA_KEYS, start=1)
        ],
        "bound_fields": [
            bound_vector(n, *case) for n, case in enumerate(BOUND_CASES, start=bound_start)
        ],
        "pgcrypto_bound_fields": [
            pgcrypto_bound_vector(n, *case)
            for n, case in enumerate(PGCRYPTO_BOUND_CASES, start=pgbound_start)
        ],
        "index_key_wraps": [
            index_wrap_vector(n, workspace, under)
            for n, (workspace, under) in enumerate(INDEX_KEYS, start=index_wrap_start)
        ],
        "blind_index": [blind_index_vector(*case) for case in BLIND_INDEX_CASES],
        "practice_blind_index": [
            practice_blind_index_vector(*case) for case in PRACTICE_BLIND_INDEX_CASES
        ],
        "blind_index_normalization": {
            "unicode_version": unicodedata.unidata_version,
            "strip_characters": strip_characters(),
        },
        "encrypted_columns": encrypted_columns(),
        "keyring": example_keyring(),
    }


def render_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# Markdown for docs/reference/ ----------------------------------------------------------------

SHORT_PLAINTEXT = 200  # characters; longer plaintexts are shown as UTF-8 hex only


def _wrap_hex(value: str, width: int = 64) -> str:
    return "\n".join(value[i : i + width] for i in range(0, len(value), width)) or "(empty)"


def _visible(text: str) -> str:
    """A JSON string in which every character that is not plainly visible is escaped."""
    out = []
    for char in json.dumps(text, ensure_ascii=False):
        out.append(
            char
            if char == " " or (char.isprintable() and not char.isspace())
            else f"\\u{ord(char):04x}"
        )
    return "".join(out)


def _hex_block(label: str, value: str) -> list[str]:
    return [f"{label} ({len(value) // 2} bytes)", _wrap_hex(value)]


def _plaintext_lines(plaintext: str, width: int) -> list[str]:
    lines = []
    if len(plaintext) <= SHORT_PLAINTEXT:
        lines.append(f"{'plaintext':<{width}} {_visible(plaintext)}")
    if plaintext and not (plaintext.isascii() and len(plaintext) <= SHORT_PLAINTEXT):
        lines += _hex_block("plaintext as UTF-8", plaintext.encode().hex())
    return lines


def render_markdown(document: dict[str, Any]) -> str:
    out: list[str] = []
    out.append("#### Formats 0x01 and 0x02 (master key)\n")
    for vector in document["fields"]:
        nonce_label = "nonce" if "nonce" in vector else "iv"
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"format      {vector['format']} (0x{vector['format_byte']:02x})")
        out.append(f"key         {vector['key']}")
        out.append(f"key_version {vector['key_version']}")
        out.append(f"{nonce_label:<11} {vector[nonce_label]}")
        out.append(f"context     {vector['context']}")
        out += _plaintext_lines(vector["plaintext"], 11)
        out += _hex_block("expected", vector["expected"])
        out.append("```\n")
    out.append("#### Data-key wrapping\n")
    for vector in document["data_key_wraps"]:
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"master_key   {vector['master_key']}")
        out.append(f"key_version  {vector['key_version']}")
        out.append(f"workspace_id {vector['workspace_id']}")
        out.append(f"data_key     {vector['data_key']}")
        out.append(f"nonce        {vector['nonce']}")
        out += _hex_block("associated data", vector["associated_data"])
        out += _hex_block("expected (wrapped_key)", vector["expected"])
        out.append("```\n")
    out.append("#### Format 0x03 (practice data key, bound to the row)\n")
    for vector in document["bound_fields"]:
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"format       {vector['format']} (0x{vector['format_byte']:02x})")
        out.append(f"data_key     {vector['data_key']} [{vector['data_key_from']}]")
        out.append(f"key_version  {vector['key_version']}")
        out.append(f"workspace_id {vector['workspace_id']}")
        out.append(f"row_id       {vector['row_id']}")
        out.append(f"nonce        {vector['nonce']}")
        out.append(f"context      {vector['context']}")
        out += _plaintext_lines(vector["plaintext"], 12)
        out += _hex_block("associated data", vector["associated_data"])
        out += _hex_block("expected", vector["expected"])
        out.append("```\n")
    out.append("#### Format 0x04 (pgcrypto backend, practice data key, bound to the row)\n")
    for vector in document["pgcrypto_bound_fields"]:
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"format       {vector['format']} (0x{vector['format_byte']:02x})")
        out.append(f"data_key     {vector['data_key']} [{vector['data_key_from']}]")
        out.append(f"key_version  {vector['key_version']}")
        out.append(f"workspace_id {vector['workspace_id']}")
        out.append(f"row_id       {vector['row_id']}")
        out.append(f"iv           {vector['iv']}")
        out.append(f"context      {vector['context']}")
        out += _plaintext_lines(vector["plaintext"], 12)
        out += _hex_block("bound context", vector["bound_context"])
        out += _hex_block("expected", vector["expected"])
        out.append("```\n")
    out.append("#### Blind-index key wrapping\n")
    for vector in document["index_key_wraps"]:
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"master_key    {vector['master_key']}")
        out.append(f"wrapped_under {vector['wrapped_under']}")
        out.append(f"workspace_id  {vector['workspace_id']}")
        out.append(f"index_key     {vector['index_key']}")
        out.append(f"nonce         {vector['nonce']}")
        out += _hex_block("associated data", vector["associated_data"])
        out += _hex_block("expected (wrapped_key)", vector["expected"])
        out.append("```\n")
    out.append("#### Blind indexes (ring-wide key, rows written before practice keys)\n")
    out.append(f"Key for all of them: `{document['blind_index'][0]['key']}`.\n")
    out += _blind_index_lines(document["blind_index"])
    out.append("#### Blind indexes (practice key)\n")
    out.append(
        "Each is under its practice's blind-index key, named in brackets after it (the "
        "wrapping vector that holds it wrapped).\n"
    )
    out += _blind_index_lines(document["practice_blind_index"])
    return "\n".join(out).rstrip("\n") + "\n"


def _blind_index_lines(vectors: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for vector in vectors:
        out.append(f"##### `{vector['name']}`\n")
        out.append("```text")
        if "key_from" in vector:
            out.append(f"key         {vector['key']} [{vector['key_from']}]")
        out.append(f"kind        {vector['kind']}")
        out.append(f"scope       {vector['scope']}")
        out.append(f"input       {_visible(vector['input'])}")
        if not vector["input"].isascii():
            out += _hex_block("input as UTF-8", vector["input"].encode().hex())
        out.append(f"normalized  {_visible(vector['normalized'])}")
        out += _hex_block("message", vector["message"])
        out.append(f"expected    {vector['expected']}")
        out.append("```\n")
    return out


def render_columns_markdown(document: dict[str, Any]) -> str:
    out = [
        "| context (`table.column`) | context bytes (hex) | plaintext |",
        "| --- | --- | --- |",
    ]
    for column in document["encrypted_columns"]:
        kind = "date as `YYYY-MM-DD`" if column["type"] == "date" else "text"
        out.append(f"| `{column['context']}` | `{column['context_bytes']}` | {kind} |")
    return "\n".join(out) + "\n"


def render_whitespace_markdown(document: dict[str, Any]) -> str:
    rules = document["blind_index_normalization"]
    return (
        f"Unicode version {rules['unicode_version']}. Characters stripped from both ends: "
        + ", ".join(rules["strip_characters"])
        + ".\n"
    )


MARKDOWN = {
    "vectors": render_markdown,
    "columns": render_columns_markdown,
    "whitespace": render_whitespace_markdown,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="fail if the JSON is out of date")
    group.add_argument(
        "--markdown",
        nargs="?",
        const="vectors",
        choices=sorted(MARKDOWN),
        help="print a generated section of docs/reference/ (default: vectors)",
    )
    args = parser.parse_args(argv)
    text = render_json(build())
    if args.markdown:
        sys.stdout.write(MARKDOWN[args.markdown](json.loads(text)))
        return 0
    if args.check:
        if JSON_PATH.read_text(encoding="utf-8") != text:
            print(f"{JSON_PATH} is out of date; rerun this script", file=sys.stderr)
            return 1
        return 0
    JSON_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {JSON_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
