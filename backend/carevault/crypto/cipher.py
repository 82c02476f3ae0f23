"""Field encryption against whatever key ring is current."""

from __future__ import annotations

from typing import Protocol

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
        return envelope.seal_aesgcm(
            ring.active_cipher, ring.active_header, plaintext.encode(), context
        )

    def decrypt(self, value: bytes, context: bytes) -> str:
        ring = self._source.ring
        # The hot path finds the key with one slice and one dict lookup on the header;
        # everything else (database-sealed values, refusals) goes the long way.
        cipher = ring.aesgcm_by_header.get(value[: envelope.HEADER_BYTES])
        if cipher is not None:
            plaintext = envelope.open_aesgcm(cipher, value, context)
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
        raise version_refused(ring, version)  # a usable version would have a cipher
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
