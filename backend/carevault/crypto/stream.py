"""Files sealed in chunks (AES-256-GCM): a bulk export's NDJSON at rest.

A file is a header, then records: 4 bytes big-endian length, then that many bytes of a
12-byte random nonce and the chunk's ciphertext with its tag. Each chunk's associated data
is the file's name (its binding), the chunk's index and whether it is the last, so chunks
cannot be reordered, moved to another file, or cut off at the end without the reader
noticing. Memory is one chunk, whatever the file's size.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from typing import BinaryIO

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto.errors import DecryptionError

MAGIC = b"CVSTREAM1"
CHUNK_BYTES = 64 * 1024
_LENGTH = struct.Struct(">I")
_NONCE_BYTES = 12


def new_file_key() -> bytes:
    return AESGCM.generate_key(bit_length=256)


def _associated(binding: bytes, index: int, last: bool) -> bytes:
    return binding + struct.pack(">QB", index, 1 if last else 0)


class SealedWriter:
    """Write plaintext in; sealed chunks go to `out`. `close()` seals the last chunk."""

    def __init__(self, out: BinaryIO, key: bytes, binding: bytes) -> None:
        self._out = out
        self._aead = AESGCM(key)
        self._binding = binding
        self._buffer = bytearray()
        self._index = 0
        self.plaintext_bytes = 0
        out.write(MAGIC)

    def write(self, data: bytes) -> None:
        self._buffer += data
        self.plaintext_bytes += len(data)
        while len(self._buffer) > CHUNK_BYTES:
            self._seal(bytes(self._buffer[:CHUNK_BYTES]), last=False)
            del self._buffer[:CHUNK_BYTES]

    def close(self) -> None:
        self._seal(bytes(self._buffer), last=True)
        self._buffer.clear()

    def _seal(self, chunk: bytes, *, last: bool) -> None:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, chunk, _associated(self._binding, self._index, last))
        self._out.write(_LENGTH.pack(len(nonce) + len(sealed)) + nonce + sealed)
        self._index += 1


def open_sealed(source: BinaryIO, key: bytes, binding: bytes) -> Iterator[bytes]:
    """The plaintext chunks of a sealed file, one at a time; DecryptionError if the file
    was altered, cut short, or sealed under another key or name."""
    if source.read(len(MAGIC)) != MAGIC:
        raise DecryptionError("not a sealed export file")
    aead = AESGCM(key)
    index = 0
    header = source.read(_LENGTH.size)
    while header:
        if len(header) != _LENGTH.size:
            raise DecryptionError("sealed file cut short")
        (length,) = _LENGTH.unpack(header)
        record = source.read(length)
        if len(record) != length or length < _NONCE_BYTES:
            raise DecryptionError("sealed file cut short")
        following = source.read(_LENGTH.size)
        last = not following
        nonce, sealed = record[:_NONCE_BYTES], record[_NONCE_BYTES:]
        try:
            chunk = aead.decrypt(nonce, sealed, _associated(binding, index, last))
        except InvalidTag:
            raise DecryptionError("a sealed export chunk failed to open") from None
        yield chunk
        index += 1
        header = following
    if index == 0:
        raise DecryptionError("sealed file cut short")
