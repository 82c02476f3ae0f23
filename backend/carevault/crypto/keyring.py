"""Versioned 256-bit keys: one active for encryption, older ones decrypt-only, retired refused.

The same JSON document describes the ring wherever it is stored (a Secrets Manager secret, the
local key-ring file, an environment variable); see docs/encryption.md for the schema.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto.envelope import FORMAT_AESGCM, header
from carevault.crypto.errors import KeyRingError

KEY_BYTES = 32
MAX_KEY_VERSION = 2**32 - 1
KEYRING_SCHEMA = "carevault.keyring/1"


def _utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def new_key_material() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


@dataclass(frozen=True, slots=True)
class KeyVersion:
    version: int
    material: bytes = field(repr=False)
    created_at: datetime
    retired: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.version <= MAX_KEY_VERSION:
            raise KeyRingError(f"key version {self.version} is outside 1..{MAX_KEY_VERSION}")
        if len(self.material) != KEY_BYTES:
            raise KeyRingError(f"key version {self.version} is not {KEY_BYTES} bytes long")


@dataclass(frozen=True)
class KeyRing:
    """An immutable snapshot of the keys. Refreshes replace the whole object."""

    keys: Mapping[int, KeyVersion]
    active_version: int
    blind_index_key: bytes = field(repr=False)
    # AESGCM objects are built once per version here and reused for every field.
    _ciphers: Mapping[int, AESGCM] = field(init=False, repr=False, compare=False)
    aesgcm_by_header: Mapping[bytes, AESGCM] = field(init=False, repr=False, compare=False)
    active_header: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        active = self.keys.get(self.active_version)
        if active is None:
            raise KeyRingError(f"active key version {self.active_version} is not in the ring")
        if active.retired:
            raise KeyRingError(f"active key version {self.active_version} is retired")
        if len(self.blind_index_key) != KEY_BYTES:
            raise KeyRingError(f"the blind-index key is not {KEY_BYTES} bytes long")
        if any(self.blind_index_key == key.material for key in self.keys.values()):
            raise KeyRingError("the blind-index key must differ from every encryption key")
        ciphers = {
            version: AESGCM(key.material) for version, key in self.keys.items() if not key.retired
        }
        object.__setattr__(self, "_ciphers", ciphers)
        # The same ciphers keyed by the five-byte header of an AES-GCM value (format byte +
        # version), so the hot decrypt path finds its key with one slice and one dict lookup.
        by_header = {header(FORMAT_AESGCM, v): c for v, c in ciphers.items()}
        object.__setattr__(self, "aesgcm_by_header", by_header)
        object.__setattr__(self, "active_header", header(FORMAT_AESGCM, self.active_version))

    @property
    def active(self) -> KeyVersion:
        return self.keys[self.active_version]

    @property
    def active_cipher(self) -> AESGCM:
        return self._ciphers[self.active_version]

    def cipher_for(self, version: int) -> AESGCM | None:
        """The cipher for a decryptable version, or None if unknown or retired."""
        return self._ciphers.get(version)

    def material_for(self, version: int) -> bytes | None:
        """Key bytes of a decryptable version, or None if unknown or retired."""
        key = self.keys.get(version)
        return None if key is None or key.retired else key.material

    def usable_material(self) -> dict[int, bytes]:
        """Key bytes of every non-retired version, for the database-side backend."""
        return {v: k.material for v, k in self.keys.items() if not k.retired}

    @classmethod
    def generate(cls) -> KeyRing:
        first = KeyVersion(version=1, material=new_key_material(), created_at=_utcnow())
        return cls(keys={1: first}, active_version=1, blind_index_key=new_key_material())

    def rotated(self) -> KeyRing:
        """A new ring with a fresh version added and made active; older versions decrypt."""
        version = max(self.keys) + 1
        added = KeyVersion(version=version, material=new_key_material(), created_at=_utcnow())
        return replace(self, keys={**self.keys, version: added}, active_version=version)

    def with_retired(self, version: int) -> KeyRing:
        if version not in self.keys:
            raise KeyRingError(f"key version {version} is not in the ring")
        if version == self.active_version:
            raise KeyRingError("the active key version cannot be retired; rotate first")
        retired = replace(self.keys[version], retired=True)
        return replace(self, keys={**self.keys, version: retired})

    # Serialisation -------------------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        return {
            "schema": KEYRING_SCHEMA,
            "active_version": self.active_version,
            "keys": [
                {
                    "version": key.version,
                    "key": base64.b64encode(key.material).decode(),
                    "created_at": key.created_at.isoformat(),
                    "retired": key.retired,
                }
                for key in sorted(self.keys.values(), key=lambda k: k.version)
            ],
            "blind_index_key": base64.b64encode(self.blind_index_key).decode(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_document(), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> KeyRing:
        try:
            document = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            # The parser's message could quote key bytes, so it is not chained.
            raise KeyRingError("the key ring is not valid JSON") from None
        return cls.from_document(document)

    @classmethod
    def from_document(cls, document: Any) -> KeyRing:
        if not isinstance(document, dict) or document.get("schema") != KEYRING_SCHEMA:
            raise KeyRingError(f'the key ring document must have "schema": "{KEYRING_SCHEMA}"')
        try:
            entries = document["keys"]
            active_version = int(document["active_version"])
            blind_index_key = _decode_key(document["blind_index_key"], "blind_index_key")
            keys: dict[int, KeyVersion] = {}
            for entry in entries:
                version = int(entry["version"])
                if version in keys:
                    raise KeyRingError(f"key version {version} appears twice")
                keys[version] = KeyVersion(
                    version=version,
                    material=_decode_key(entry["key"], f"key version {version}"),
                    created_at=_parse_time(entry.get("created_at")),
                    retired=bool(entry.get("retired", False)),
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise KeyRingError(
                f"the key ring document is malformed ({type(exc).__name__})"
            ) from None
        return cls(keys=keys, active_version=active_version, blind_index_key=blind_index_key)


def _decode_key(value: Any, what: str) -> bytes:
    try:
        material = base64.b64decode(str(value), validate=True)
    except (binascii.Error, ValueError):
        raise KeyRingError(f"{what} is not valid base64") from None
    if len(material) != KEY_BYTES:
        raise KeyRingError(f"{what} is not {KEY_BYTES} bytes long")
    return material


def _parse_time(value: Any) -> datetime:
    if value is None:
        return _utcnow()
    parsed = datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
