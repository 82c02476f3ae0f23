"""The KMS layout vector of docs/reference/key-formats.md, checked with CareVault's own code: the
framing of a KMS wrapped key, the blind-index key wrapped under the data key, a 0x03 value under it.
(decode_from_spec.mjs checks the same vector from the document alone.)"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import DecryptionError, envelope
from carevault.crypto.datakeys import unwrap_index_key_with, wrap_index_key_with
from carevault.crypto.kms import KMS_WRAPPED_FORMAT, frame, unframe

DOC = Path(__file__).resolve().parents[3] / "docs" / "reference" / "key-formats.md"


def vector() -> dict[str, str]:
    text = DOC.read_text()
    block = text[text.index("<!-- kms-vectors:begin -->") : text.index("<!-- kms-vectors:end -->")]
    body = re.search(r"```text\n(.*?)```", block, re.S)
    assert body is not None
    fields: dict[str, str] = {}
    current = None
    for line in body.group(1).splitlines():
        sized = re.fullmatch(r"(.+?) \(\d+ bytes\)", line)
        if sized:
            current = sized.group(1)
            fields[current] = ""
        elif current and re.fullmatch(r"[0-9a-f]+", line):
            fields[current] += line
        else:
            name, value = line.split(None, 1)
            fields[name] = value
            current = None
    return fields


def test_the_stored_wrapped_key_is_the_framed_kms_ciphertext() -> None:
    v = vector()
    wrapped = bytes.fromhex(v["expected (wrapped_key)"])
    assert wrapped[0] == KMS_WRAPPED_FORMAT
    assert unframe(wrapped) == (v["kms_key_id"], bytes.fromhex(v["ciphertext_blob"]))
    assert frame(v["kms_key_id"], bytes.fromhex(v["ciphertext_blob"])) == wrapped


def test_the_index_key_and_a_value_open_under_the_data_key() -> None:
    v = vector()
    workspace, row = uuid.UUID(v["workspace_id"]).bytes, uuid.UUID(v["row_id"]).bytes
    data_key, version = bytes.fromhex(v["data_key"]), int(v["key_version"])
    wrapped_index = bytes.fromhex(v["expected (index wrapped_key)"])
    assert unwrap_index_key_with(data_key, workspace, version, wrapped_index) == bytes.fromhex(
        v["index_key"]
    )
    value = bytes.fromhex(v["expected (value)"])
    head = envelope.header(envelope.FORMAT_BOUND, version)
    associated = head + workspace + row + v["context"].encode()
    opened = envelope.open_gcm(AESGCM(data_key), value, associated)
    assert opened.decode() == json.loads(v["plaintext"])
    with pytest.raises(DecryptionError):  # another practice
        unwrap_index_key_with(data_key, uuid.uuid4().bytes, version, wrapped_index)
    with pytest.raises(DecryptionError):  # another version
        unwrap_index_key_with(data_key, workspace, version + 1, wrapped_index)
    rewrapped = wrap_index_key_with(data_key, workspace, version, bytes.fromhex(v["index_key"]))
    assert unwrap_index_key_with(data_key, workspace, version, rewrapped) == bytes.fromhex(
        v["index_key"]
    )


@pytest.mark.parametrize("bad", [b"", b"\x4b\x00", b"\x4b\x00\x05abc", b"\x01" + b"x" * 80])
def test_a_malformed_kms_wrapped_key_is_refused(bad: bytes) -> None:
    with pytest.raises(DecryptionError):
        unframe(bad)
