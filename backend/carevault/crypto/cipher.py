"""Field encryption against whatever key ring is current."""

from __future__ import annotations

import os
from typing import Protocol

from cryptography.exceptions import InvalidTag

from carevault.crypto import envelope
from carevault.crypto.errors import DecryptionError
from carevault.crypto.keyring import KeyRing


class RingSource(Protocol):
    """Anything that holds the current key ring; read on every call, never fetched."""

    @property
    def ring(self) -> KeyRing: ...


class StaticRing:
    """A ring that never changes (tests, one-off tools)."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


class FieldCipher:
    """Seals and opens single field values. `context` is the associated data ("table.column")."""

    def __init__(self, source: RingSource) -> None:
        self._source = source

    @property
    def ring(self) -> KeyRing:
        return self._source.ring

    def encrypt(self, plaintext: str, context: bytes) -> bytes:
        ring = self._source.ring
        head = ring.active_header  # envelope.seal_aesgcm, inlined with the header precomputed
        nonce = os.urandom(envelope.GCM_NONCE_BYTES)
        return head + nonce + ring.active_cipher.encrypt(nonce, plaintext.encode(), head + context)

    def decrypt(self, value: bytes, context: bytes) -> str:
        ring = self._source.ring
        head = value[: envelope.HEADER_BYTES]
        cipher = ring.aesgcm_by_header.get(head)
        if cipher is not None and len(value) >= envelope.MIN_AESGCM_BYTES:
            # The hot path, envelope.open_aesgcm inlined: an application-sealed value under a
            # usable key, found with one slice and one dict lookup.
            nonce_end = envelope.HEADER_BYTES + envelope.GCM_NONCE_BYTES
            try:
                plaintext = cipher.decrypt(
                    value[envelope.HEADER_BYTES : nonce_end], value[nonce_end:], head + context
                )
            except InvalidTag:
                raise DecryptionError(envelope.AUTHENTICATION_FAILED) from None
        else:
            plaintext = _open_other(ring, value, context)
        try:
            return plaintext.decode()
        except UnicodeDecodeError:
            raise DecryptionError("decrypted bytes are not UTF-8") from None


def _open_other(ring: KeyRing, value: bytes, context: bytes) -> bytes:
    """Everything off the hot path: database-sealed values, and every kind of refusal."""
    format_byte, version = envelope.read_header(value)
    if format_byte == envelope.FORMAT_AESGCM:
        if ring.cipher_for(version) is None:
            raise version_refused(ring, version)
        raise DecryptionError("stored value is truncated")
    if format_byte == envelope.FORMAT_PGCRYPTO:
        material = ring.material_for(version)
        if material is None:
            raise version_refused(ring, version)
        return envelope.open_cbc_hmac(material, value, context)
    raise DecryptionError(f"unknown format byte 0x{format_byte:02x}")


def version_refused(ring: KeyRing, version: int) -> DecryptionError:
    if version in ring.keys:
        return DecryptionError(f"key version {version} is retired")
    return DecryptionError(f"key version {version} is not in the key ring")
