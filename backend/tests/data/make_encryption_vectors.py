"""Generate encryption_vectors.json: test vectors for the stored format of encrypted fields.

    .venv/bin/python backend/tests/data/make_encryption_vectors.py            # (re)write JSON
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --check    # verify it
    .venv/bin/python backend/tests/data/make_encryption_vectors.py --markdown # doc section

Every key, nonce and IV here is a fixed, obviously fake byte pattern, so the output is
deterministic. Never use these keys for anything else. The format is specified in
docs/encryption.md; backend/tests/unit/test_encryption_vectors.py checks the vectors both ways
(sealing reproduces them, opening returns the plaintext) and independently of
carevault.crypto.envelope.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import envelope
from carevault.crypto.blind_index import normalize_email, normalize_phone

HERE = Path(__file__).resolve().parent
JSON_PATH = HERE / "encryption_vectors.json"

FORMAT_NAMES = {envelope.FORMAT_AESGCM: "aesgcm", envelope.FORMAT_PGCRYPTO: "pgcrypto-cbc-hmac"}

# Fake keys: byte ranges, recognisable at a glance in hex.
KEYS: dict[int, bytes] = {
    1: bytes(range(0x00, 0x20)),  # 000102…1f
    7: bytes(range(0x20, 0x40)),  # 202122…3f
    4294967295: bytes(range(0xFF, 0xDF, -1)),  # fffefd…e0 (largest possible version)
}
RETIRED_VERSION = 2
RETIRED_KEY = bytes(range(0x60, 0x80))  # 606162…7f, only in the example ring, retired
BLIND_INDEX_KEY = bytes(range(0x40, 0x60))  # 404142…5f, differs from every encryption key
CREATED_AT = {
    1: "2024-01-01T00:00:00+00:00",
    RETIRED_VERSION: "2024-04-01T00:00:00+00:00",
    7: "2024-07-01T00:00:00+00:00",
    4294967295: "2024-10-01T00:00:00+00:00",
}
ACTIVE_VERSION = 7

SCOPE_A = "11111111-1111-4111-8111-111111111111"  # a workspace id (fake)
SCOPE_B = "22222222-2222-4222-8222-222222222222"  # another workspace

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
        4294967295,
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
        4294967295,
        "clients.phone",
        "+1 (555) 010-0199",
    ),
]

# (name, kind, scope, input value)
BLIND_INDEX_CASES: list[tuple[str, str, str, str]] = [
    ("email-plain", "email", SCOPE_A, "jane.doe@example.com"),
    ("email-spaces-capitals", "email", SCOPE_A, "  Jane.Doe@Example.COM\t"),
    ("email-fullwidth-nfkc", "email", SCOPE_A, "Ｊａｎｅ.Ｄｏｅ@example.com"),
    ("email-other-workspace", "email", SCOPE_B, "jane.doe@example.com"),
    ("phone-punctuation", "phone", SCOPE_A, "+1 (555) 010-0199"),
    ("phone-dots", "phone", SCOPE_A, "1.555.010.0199"),
    ("phone-other-workspace", "phone", SCOPE_B, "+1 (555) 010-0199"),
]

NORMALIZERS = {"email": normalize_email, "phone": normalize_phone}


def field_vector(n: int, name: str, fmt: int, version: int, context: str, text: str) -> dict:
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
        sealed = envelope.seal_aesgcm(
            AESGCM(key),
            envelope.header(envelope.FORMAT_AESGCM, version),
            text.encode(),
            context.encode(),
            nonce=nonce(n),
        )
    else:
        vector["iv"] = iv(n).hex()
        sealed = envelope.seal_cbc_hmac(key, version, text.encode(), context.encode(), iv=iv(n))
    vector.update(context=context, plaintext=text, expected=sealed.hex())
    return vector


def blind_index_vector(name: str, kind: str, scope: str, value: str) -> dict:
    normalized = NORMALIZERS[kind](value)
    message = b"\x00".join((kind.encode(), scope.encode(), normalized.encode()))
    # Computed with the bare primitive; the tests compare carevault's BlindIndex against it.
    digest = hmac.new(BLIND_INDEX_KEY, message, hashlib.sha256).digest()
    return {
        "name": name,
        "key": BLIND_INDEX_KEY.hex(),
        "kind": kind,
        "scope": scope,
        "input": value,
        "normalized": normalized,
        "expected": digest.hex(),
    }


def example_keyring() -> dict:
    """The ring every vector opens under, in the carevault.keyring/1 schema (keyring.py)."""
    material = {**KEYS, RETIRED_VERSION: RETIRED_KEY}
    return {
        "schema": "carevault.keyring/1",
        "active_version": ACTIVE_VERSION,
        "keys": [
            {
                "version": version,
                "key": base64.b64encode(material[version]).decode(),
                "created_at": CREATED_AT[version],
                "retired": version == RETIRED_VERSION,
            }
            for version in sorted(material)
        ],
        "blind_index_key": base64.b64encode(BLIND_INDEX_KEY).decode(),
    }


def build() -> dict:
    return {
        "description": (
            "Test vectors for CareVault encrypted fields and blind indexes. Specification: "
            "docs/encryption.md. Generated by backend/tests/data/make_encryption_vectors.py; "
            "checked by backend/tests/unit/test_encryption_vectors.py. All keys are fake."
        ),
        "fields": [field_vector(n, *case) for n, case in enumerate(FIELD_CASES, start=1)],
        "blind_index": [blind_index_vector(*case) for case in BLIND_INDEX_CASES],
        "keyring": example_keyring(),
    }


def render_json(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# Markdown for docs/encryption.md ------------------------------------------------------------

LONG_PLAINTEXT = 200  # characters; longer vectors are summarised in the doc


def _wrap_hex(value: str, width: int = 64) -> str:
    return "\n".join(value[i : i + width] for i in range(0, len(value), width)) or "(empty)"


def render_markdown(document: dict) -> str:
    out: list[str] = []
    for vector in document["fields"]:
        nonce_label = "nonce" if "nonce" in vector else "iv"
        plaintext = vector["plaintext"]
        expected = vector["expected"]
        out.append(f"#### `{vector['name']}`\n")
        out.append("```text")
        out.append(f"format      {vector['format']} (0x{vector['format_byte']:02x})")
        out.append(f"key         {vector['key']}")
        out.append(f"key_version {vector['key_version']}")
        out.append(f"{nonce_label:<11} {vector[nonce_label]}")
        out.append(f"context     {vector['context']}")
        if len(plaintext) <= LONG_PLAINTEXT:
            out.append(f"plaintext   {json.dumps(plaintext, ensure_ascii=False)}")
            out.append(f"expected    ({len(expected) // 2} bytes)")
            out.append(_wrap_hex(expected))
        else:
            size = len(plaintext.encode())
            out.append(f"plaintext   ({size} bytes of UTF-8; full text in the JSON) sha256:")
            out.append(hashlib.sha256(plaintext.encode()).hexdigest())
            out.append(f"expected    ({len(expected) // 2} bytes; full value in the JSON) sha256:")
            out.append(hashlib.sha256(bytes.fromhex(expected)).hexdigest())
        out.append("```\n")
    out.append("#### Blind indexes\n")
    out.append(f"Key for all rows: `{document['blind_index'][0]['key']}`.\n")
    out.append("| name | kind | scope | input | normalized | expected (HMAC-SHA256) |")
    out.append("| --- | --- | --- | --- | --- | --- |")
    for vector in document["blind_index"]:
        shown = json.dumps(vector["input"], ensure_ascii=False)
        out.append(
            f"| `{vector['name']}` | {vector['kind']} | `{vector['scope']}` | `{shown}` | "
            f"`{vector['normalized']}` | `{vector['expected']}` |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="fail if the JSON is out of date")
    group.add_argument("--markdown", action="store_true", help="print the doc section")
    args = parser.parse_args(argv)
    text = render_json(build())
    if args.markdown:
        sys.stdout.write(render_markdown(json.loads(text)))
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
