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
            ring.active_cipher, ring.active_version, plaintext.encode(), context
        )

    def decrypt(self, value: bytes, context: bytes) -> str:
        format_byte, version = envelope.read_header(value)
        ring = self._source.ring
        if format_byte == envelope.FORMAT_AESGCM:
            cipher = ring.cipher_for(version)
            if cipher is None:
                raise version_refused(ring, version)
            plaintext = envelope.open_aesgcm(cipher, value, context)
        elif format_byte == envelope.FORMAT_PGCRYPTO:
            material = ring.material_for(version)
            if material is None:
                raise version_refused(ring, version)
            plaintext = envelope.open_cbc_hmac(material, value, context)
        else:
            raise DecryptionError(f"unknown format byte 0x{format_byte:02x}")
        try:
            return plaintext.decode()
        except UnicodeDecodeError:
            raise DecryptionError("decrypted bytes are not UTF-8") from None


def version_refused(ring: KeyRing, version: int) -> DecryptionError:
    if version in ring.keys:
        return DecryptionError(f"key version {version} is retired")
    return DecryptionError(f"key version {version} is not in the key ring")
