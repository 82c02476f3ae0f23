"""Field encryption against whatever key ring is current."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Protocol

from cryptography.exceptions import InvalidTag

from carevault.crypto import envelope
from carevault.crypto.datakeys import DataKeyCache
from carevault.crypto.errors import (
    DecryptionError,
    MissingDataKey,
    UnknownKeyVersion,
)
from carevault.crypto.keyring import KeyRing

_BOUND = envelope.FORMAT_BOUND
_BINDING = envelope.ROW_BINDING_BYTES
_ID = envelope.ROW_ID_BYTES
# Offsets in a value selected with its row ids in front: ids | header | nonce | body | tag.
_HEAD_END = _BINDING + envelope.HEADER_BYTES
_NONCE_END = _HEAD_END + envelope.GCM_NONCE_BYTES
_MIN_PREFIXED = _BINDING + envelope.MIN_AESGCM_BYTES
_BOUND_BYTE = bytes((_BOUND,))

# NIST SP 800-38D caps a key at 2^32 encryptions with random 96-bit nonces; warn at 2^30.
NONCE_LIMIT = 2**32
NONCE_WARNING = 2**30


class RingSource(Protocol):
    """Anything that holds the current key ring; read on every call, never fetched."""

    @property
    def ring(self) -> KeyRing: ...


class StaticRing:
    """A ring that never changes (tests, one-off tools)."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


Binding = tuple[bytes, bytes]  # (workspace id, row id), 16 raw bytes each


class FieldCipher:
    """Seals and opens single field values. `context` names the column ("table.column")."""

    def __init__(self, source: RingSource, data_keys: DataKeyCache | None = None) -> None:
        self._source = source
        ttl = getattr(source, "ttl_seconds", None)
        self.data_keys = data_keys or DataKeyCache(float(ttl) if ttl else 300.0)
        # Encryptions by this process per (practice, version) data key, for the nonce limit.
        # A plain dict counted in place: on the write path a Counter costs several times as
        # much (no specialised subscript for dict subclasses). Read through the properties.
        self._sealed: dict[tuple[bytes, int], int] = {}
        self._lock = threading.Lock()

    @property
    def ring(self) -> KeyRing:
        return self._source.ring

    @property
    def sealed_by_data_key(self) -> Counter[tuple[bytes, int]]:
        """Encryptions by this process per (practice, version) data key."""
        return Counter(self._sealed)

    @property
    def sealed_by_version(self) -> Counter[int]:
        """Encryptions by this process per master version."""
        by_version: Counter[int] = Counter()
        for (_, version), count in list(self._sealed.items()):
            by_version[version] += count
        return by_version

    # Sealing ---------------------------------------------------------------------------------

    def seal(self, plaintext: str, binding: Binding, context: bytes) -> bytes:
        """Format 0x03 under the practice's data key, bound to its row and column."""
        workspace, row = binding
        version, head, cipher = self.data_keys.sealing_key(self._source.ring, workspace)
        self.count_sealed(workspace, version)
        return envelope.seal_bound(cipher, head, plaintext.encode(), workspace, row, context)

    def count_sealed(self, workspace: bytes, version: int) -> None:
        """One more value sealed under the practice's data key of `version` (the database-side
        backend counts its own seals here too)."""
        counted = (workspace, version)
        try:
            self._sealed[counted] += 1
        except KeyError:
            self._sealed[counted] = 1

    # Opening ---------------------------------------------------------------------------------

    def open_prefixed(self, value: bytes, context: bytes) -> str:
        """Open a value read with its row's ids in front (workspace id | row id | stored),
        which is how encrypted columns are selected."""
        # Hot path of every PHI read: a 0x03 value whose data key is already unwrapped for
        # the current ring, opened in place (no copy of the value, no binding tuple). The
        # associated data is the same (header | workspace id | row id | context), the ids
        # still come from the row. Anything else, every refusal included, takes `open`.
        head = value[_BINDING:_HEAD_END]
        if head[:1] == _BOUND_BYTE and len(value) >= _MIN_PREFIXED:
            cipher = self.data_keys.cached(self._source.ring, value[:_ID], head)
            if cipher is not None:
                # envelope.open_gcm written out at offset 32 (same slices, same refusal):
                # a Python call costs a tenth of a short field's whole decryption.
                try:
                    plaintext = cipher.decrypt(
                        value[_HEAD_END:_NONCE_END],
                        value[_NONCE_END:],
                        head + value[:_BINDING] + context,
                    )
                except InvalidTag:
                    raise DecryptionError(envelope.AUTHENTICATION_FAILED) from None
                try:
                    return plaintext.decode()
                except UnicodeDecodeError:
                    raise DecryptionError("decrypted bytes are not UTF-8") from None
        return self.open(value[_BINDING:], (value[:_ID], value[_ID:_BINDING]), context)

    def open(self, value: bytes, binding: Binding, context: bytes) -> str:
        try:
            return self._open(value, binding, context)
        except UnknownKeyVersion:
            # Second line of defence behind staged rotation: a process that missed a refresh
            # reloads the ring once (rate-limited by the source) and tries again.
            if not self._refresh_source():
                raise
        except MissingDataKey:
            return self._open_after_data_key_reload(value, binding, context)
        try:
            return self._open(value, binding, context)
        except MissingDataKey:
            # The ring has the version now, but the practice's key of it was never loaded.
            return self._open_after_data_key_reload(value, binding, context)

    def _open_after_data_key_reload(self, value: bytes, binding: Binding, context: bytes) -> str:
        if not self.data_keys.reload_after_miss(binding[0]):
            raise MissingDataKey(_missing_reason(value))
        return self._open(value, binding, context)

    def decrypt(self, value: bytes, context: bytes) -> str:
        """Open a value of the older formats (0x01, 0x02), which bind the column only."""
        return self.open(value, (b"", b""), context)

    def _open(self, value: bytes, binding: Binding, context: bytes) -> str:
        ring = self._source.ring
        head = value[: envelope.HEADER_BYTES]
        if head[:1] == b"\x03":
            if len(value) < envelope.MIN_AESGCM_BYTES:
                raise DecryptionError("stored value is truncated")
            workspace, row = binding
            cipher = self.data_keys.cipher(ring, workspace, head)
            if cipher is None:
                self.data_keys.mark_stale(workspace)
                raise _missing_data_key(ring, head)
            plaintext = envelope.open_gcm(cipher, value, head + workspace + row + context)
        elif head[:1] == b"\x04":
            workspace, row = binding
            version = int.from_bytes(head[1:], "big")
            material = self.data_keys.material(ring, workspace, version)
            if material is None:
                self.data_keys.mark_stale(workspace)
                raise _missing_data_key(ring, head)
            plaintext = envelope.open_cbc_hmac(material, value, workspace + row + context)
        else:
            # The hot path of 0x01 finds the key with one dict lookup on the header.
            legacy = ring.aesgcm_by_header.get(head)
            if legacy is not None:
                plaintext = envelope.open_aesgcm(legacy, value, context)
            else:
                plaintext = _open_other(ring, value, context)
        try:
            return plaintext.decode()
        except UnicodeDecodeError:
            raise DecryptionError("decrypted bytes are not UTF-8") from None

    def _refresh_source(self) -> bool:
        refresh: Callable[[], bool] | None = getattr(self._source, "refresh_after_miss", None)
        return bool(refresh and refresh())

    def nonce_warnings(self) -> list[str]:
        """Data keys this process alone has used past the warning threshold."""
        return [
            f"data key version {version} of practice {workspace.hex()} sealed {count} values"
            for (workspace, version), count in list(self._sealed.items())
            if count >= NONCE_WARNING
        ]


def _missing_data_key(ring: KeyRing, head: bytes) -> DecryptionError:
    version = int.from_bytes(head[1:], "big")
    if version not in ring.keys:
        return UnknownKeyVersion(f"key version {version} is not in the key ring")
    if not ring.keys[version].usable:
        return DecryptionError(f"key version {version} is retired")
    return MissingDataKey(_missing_reason(head))


def _missing_reason(value: bytes) -> str:
    version = int.from_bytes(value[1 : envelope.HEADER_BYTES], "big")
    return f"the practice has no data key of key version {version}"


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
    return UnknownKeyVersion(f"key version {version} is not in the key ring")
