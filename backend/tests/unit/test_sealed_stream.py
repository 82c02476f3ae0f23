"""Sealed export files (carevault.crypto.stream): what was written reads back; a file
altered, cut short, reordered, renamed or opened under another key refuses to open."""

from __future__ import annotations

import io

import pytest

from carevault.crypto import DecryptionError
from carevault.crypto.stream import CHUNK_BYTES, MAGIC, SealedWriter, new_file_key, open_sealed

BINDING = b"carevault-export:job:Patient-00001.ndjson"


def sealed(data: bytes, key: bytes, binding: bytes = BINDING) -> bytes:
    out = io.BytesIO()
    writer = SealedWriter(out, key, binding)
    for start in range(0, len(data), 10_000):  # written in pieces, as the export does
        writer.write(data[start : start + 10_000])
    writer.close()
    return out.getvalue()


def opened(stored: bytes, key: bytes, binding: bytes = BINDING) -> bytes:
    return b"".join(open_sealed(io.BytesIO(stored), key, binding))


DATA = b"".join(b'{"resourceType":"Patient","id":"%d"}\n' % n for n in range(10_000))


def test_what_was_sealed_opens_chunk_by_chunk() -> None:
    key = new_file_key()
    stored = sealed(DATA, key)
    assert len(DATA) > 3 * CHUNK_BYTES and stored.startswith(MAGIC)
    assert b"Patient" not in stored
    chunks = list(open_sealed(io.BytesIO(stored), key, BINDING))
    assert len(chunks) == len(DATA) // CHUNK_BYTES + 1
    assert max(len(chunk) for chunk in chunks) == CHUNK_BYTES
    assert b"".join(chunks) == DATA
    assert opened(sealed(b"", key), key) == b""


def _records(stored: bytes) -> list[bytes]:
    """The chunk records (length prefix included) after the header."""
    found, at = [], len(MAGIC)
    while at < len(stored):
        length = int.from_bytes(stored[at : at + 4], "big")
        found.append(stored[at : at + 4 + length])
        at += 4 + length
    return found


@pytest.mark.parametrize("damage", ["flip", "cut_at_chunk", "cut_inside", "swap", "drop_first"])
def test_a_damaged_file_refuses_to_open(damage: str) -> None:
    key = new_file_key()
    stored = sealed(DATA, key)
    records = _records(stored)
    if damage == "flip":
        broken = bytearray(stored)
        broken[len(stored) // 2] ^= 1
        stored = bytes(broken)
    elif damage == "cut_at_chunk":
        stored = MAGIC + b"".join(records[:-1])
    elif damage == "cut_inside":
        stored = stored[:-5]
    elif damage == "swap":
        stored = MAGIC + b"".join([records[1], records[0], *records[2:]])
    else:
        stored = MAGIC + b"".join(records[1:])
    with pytest.raises(DecryptionError):
        opened(stored, key)


def test_another_key_or_file_name_refuses_to_open() -> None:
    key = new_file_key()
    stored = sealed(DATA, key)
    with pytest.raises(DecryptionError):
        opened(stored, new_file_key())
    with pytest.raises(DecryptionError):
        opened(stored, key, b"carevault-export:job:Patient-00002.ndjson")
    with pytest.raises(DecryptionError):
        opened(b"not sealed", key)
