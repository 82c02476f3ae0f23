"""Versioned 256-bit master keys, staged through their lifecycle:

pending (every process decrypts with it, none encrypts yet) -> active (new data keys and values
are sealed under it) -> decrypt-only (an older version) -> retired (its material destroyed).

A pending version becomes active by itself at its `activate_after` time, which `keys rotate`
sets at least one refresh interval ahead, so every process has loaded it before any value
is sealed under it. The same JSON document describes the ring wherever it is stored (a
Secrets Manager secret, the local key-ring file, an environment variable); see
docs/reference/key-formats.md for the schema.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

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


class RemoteWrapper(Protocol):
    """A key service that makes, wraps and opens data keys under master keys it keeps."""

    def generate(
        self, workspace: bytes, purpose: str, version: int, key_id: str | None = None
    ) -> tuple[bytes, bytes]: ...

    def wrap(
        self,
        workspace: bytes,
        purpose: str,
        version: int,
        plaintext: bytes,
        key_id: str | None = None,
    ) -> bytes: ...

    def unwrap(self, workspace: bytes, purpose: str, version: int, wrapped: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class KeyVersion:
    version: int
    # None once retired: retiring destroys the material, so backups sealed under it die too.
    material: bytes | None = field(repr=False)
    created_at: datetime
    retired: bool = False
    # Set while the version is pending: the moment it becomes active in every process.
    activate_after: datetime | None = None
    # The master key lives in a key service (KMS) and never in this process: no material,
    # yet usable (data keys are wrapped and opened by the service).
    remote: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.version <= MAX_KEY_VERSION:
            raise KeyRingError(f"key version {self.version} is outside 1..{MAX_KEY_VERSION}")
        if self.material is None and not self.retired and not self.remote:
            raise KeyRingError(f"key version {self.version} has no key material")
        if self.material is not None and len(self.material) != KEY_BYTES:
            raise KeyRingError(f"key version {self.version} is not {KEY_BYTES} bytes long")
        if self.retired and self.activate_after is not None:
            raise KeyRingError(f"key version {self.version} is both retired and pending")

    @property
    def usable(self) -> bool:
        return (self.material is not None or self.remote) and not self.retired


@dataclass(frozen=True)
class KeyRing:
    """An immutable snapshot of the keys. Refreshes replace the whole object."""

    keys: Mapping[int, KeyVersion]
    active_version: int
    blind_index_key: bytes = field(repr=False)
    # HMAC key sealing the audit trail (carevault/audit/sealing.py); None in rings made
    # before it existed, until `carevault keys add-audit-key`.
    audit_key: bytes | None = field(default=None, repr=False)
    # Set when the master keys live in a key service: it wraps and opens data keys
    # (carevault.crypto.kms.KmsKeys); None for rings holding their own material.
    remote: RemoteWrapper | None = field(default=None, repr=False, compare=False)
    # AESGCM objects are built once per version here and reused for every field.
    _ciphers: Mapping[int, AESGCM] = field(init=False, repr=False, compare=False)
    aesgcm_by_header: Mapping[bytes, AESGCM] = field(init=False, repr=False, compare=False)
    active_header: bytes = field(init=False, repr=False, compare=False)
    pending_version: int | None = field(init=False, repr=False, compare=False)
    _pending_at: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        active = self.keys.get(self.active_version)
        if active is None:
            raise KeyRingError(f"active key version {self.active_version} is not in the ring")
        if not active.usable:
            raise KeyRingError(f"active key version {self.active_version} is retired")
        if active.activate_after is not None:
            raise KeyRingError(f"active key version {self.active_version} is marked pending")
        pending = [k for k in self.keys.values() if k.activate_after is not None]
        if len(pending) > 1:
            raise KeyRingError("more than one key version is pending")
        if pending and pending[0].version < self.active_version:
            raise KeyRingError("a pending key version must be newer than the active one")
        if len(self.blind_index_key) != KEY_BYTES:
            raise KeyRingError(f"the blind-index key is not {KEY_BYTES} bytes long")
        if any(self.blind_index_key == key.material for key in self.keys.values()):
            raise KeyRingError("the blind-index key must differ from every encryption key")
        if self.audit_key is not None:
            if len(self.audit_key) != KEY_BYTES:
                raise KeyRingError(f"the audit key is not {KEY_BYTES} bytes long")
            others = [self.blind_index_key, *(key.material for key in self.keys.values())]
            if any(self.audit_key == other for other in others):
                raise KeyRingError("the audit key must differ from every other key")
        ciphers = {
            version: AESGCM(key.material)
            for version, key in self.keys.items()
            if key.usable and key.material is not None
        }
        object.__setattr__(self, "_ciphers", ciphers)
        # The same ciphers keyed by the five-byte header of an AES-GCM value (format byte +
        # version), so the hot decrypt path finds its key with one slice and one dict lookup.
        by_header = {header(FORMAT_AESGCM, v): c for v, c in ciphers.items()}
        object.__setattr__(self, "aesgcm_by_header", by_header)
        object.__setattr__(self, "active_header", header(FORMAT_AESGCM, self.active_version))
        first = pending[0] if pending else None
        object.__setattr__(self, "pending_version", first.version if first else None)
        at = first.activate_after.timestamp() if first and first.activate_after else float("inf")
        object.__setattr__(self, "_pending_at", at)

    @property
    def active(self) -> KeyVersion:
        return self.keys[self.active_version]

    @property
    def active_cipher(self) -> AESGCM:
        return self._ciphers[self.active_version]

    @property
    def pending(self) -> KeyVersion | None:
        return None if self.pending_version is None else self.keys[self.pending_version]

    def encryption_version(self, now: float | None = None) -> int:
        """The version new values are sealed under: the pending one once its time has come.

        Every process decides this from the same `activate_after` in the same document, so
        they switch together without coordinating, and each had the version in its ring for
        at least one refresh interval before.
        """
        if (time.time() if now is None else now) >= self._pending_at:
            return self.pending_version  # type: ignore[return-value]
        return self.active_version

    def cipher_for(self, version: int) -> AESGCM | None:
        """The cipher for a decryptable version (pending included), or None."""
        return self._ciphers.get(version)

    def material_for(self, version: int) -> bytes | None:
        """Key bytes of a decryptable version, or None if unknown or retired."""
        key = self.keys.get(version)
        return key.material if key is not None and key.usable else None

    def usable_material(self) -> dict[int, bytes]:
        """Key bytes of every decryptable version, for the database-side backend."""
        return {v: k.material for v, k in self.keys.items() if k.usable and k.material}

    def state_of(self, version: int, now: float | None = None) -> str:
        key = self.keys[version]
        if key.retired:
            return "retired"
        if version == self.encryption_version(now):
            return "active"
        if key.activate_after is not None:
            return "pending"
        return "decrypt-only"

    @classmethod
    def generate(cls) -> KeyRing:
        first = KeyVersion(version=1, material=new_key_material(), created_at=_utcnow())
        return cls(
            keys={1: first},
            active_version=1,
            blind_index_key=new_key_material(),
            audit_key=new_key_material(),
        )

    def rotated(self, activate_after: datetime | None = None) -> KeyRing:
        """A new ring with a fresh version added: pending until `activate_after`, or active
        at once when that is None (a ring no process serves from yet, e.g. in tests)."""
        if self.pending_version is not None:
            raise KeyRingError(
                f"key version {self.pending_version} is still pending; activate it first"
            )
        version = max(self.keys) + 1
        added = KeyVersion(
            version=version,
            material=new_key_material(),
            created_at=_utcnow(),
            activate_after=activate_after,
        )
        keys = {**self.keys, version: added}
        if activate_after is None:
            return replace(self, keys=keys, active_version=version)
        return replace(self, keys=keys)

    def activated(self, version: int) -> KeyRing:
        """The ring with the pending `version` recorded as active."""
        if version != self.pending_version:
            raise KeyRingError(f"key version {version} is not pending")
        key = replace(self.keys[version], activate_after=None)
        return replace(self, keys={**self.keys, version: key}, active_version=version)

    def settled(self, now: float | None = None) -> KeyRing:
        """The same ring with a pending version whose time has come recorded as active."""
        if self.pending_version is not None and self.encryption_version(now) != self.active_version:
            return self.activated(self.pending_version)
        return self

    def with_retired(self, version: int) -> KeyRing:
        """Retire a version: its material is destroyed, its number never reused."""
        if version not in self.keys:
            raise KeyRingError(f"key version {version} is not in the ring")
        if version in (self.active_version, self.encryption_version(), self.pending_version):
            raise KeyRingError("the active or pending key version cannot be retired; rotate first")
        retired = replace(self.keys[version], retired=True, material=None)
        return replace(self, keys={**self.keys, version: retired})

    def check_successor(self, newer: KeyRing) -> None:
        """Refuse a refreshed ring that would strand data this ring can read: a version
        dropped or destroyed while it was still usable here, or a changed blind-index key
        (every stored index would stop matching). Retiring through `keys retire` is fine:
        the version stays listed, marked retired."""
        for version, key in self.keys.items():
            if version not in newer.keys:
                raise KeyRingError(f"the refreshed key ring drops key version {version}")
            other = newer.keys[version]
            if key.usable and other.usable and other.material != key.material:
                raise KeyRingError(f"the refreshed key ring changes key version {version}")
        if newer.blind_index_key != self.blind_index_key:
            raise KeyRingError("the refreshed key ring changes the blind-index key")

    # Serialisation -------------------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "schema": KEYRING_SCHEMA,
            "active_version": self.active_version,
            "keys": [
                _key_document(key) for key in sorted(self.keys.values(), key=lambda k: k.version)
            ],
            "blind_index_key": base64.b64encode(self.blind_index_key).decode(),
        }
        if self.audit_key is not None:
            document["audit_key"] = base64.b64encode(self.audit_key).decode()
        return document

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
            audit_key = (
                _decode_key(document["audit_key"], "audit_key")
                if document.get("audit_key") is not None
                else None
            )
            keys: dict[int, KeyVersion] = {}
            for entry in entries:
                version = int(entry["version"])
                if version in keys:
                    raise KeyRingError(f"key version {version} appears twice")
                retired = bool(entry.get("retired", False))
                encoded = entry.get("key")
                if encoded is None and not retired:
                    raise KeyRingError(f"key version {version} has no key material")
                activate_after = entry.get("activate_after")
                keys[version] = KeyVersion(
                    version=version,
                    material=None
                    if encoded is None
                    else _decode_key(encoded, f"key version {version}"),
                    created_at=_parse_time(entry.get("created_at")),
                    retired=retired,
                    activate_after=None if activate_after is None else _parse_time(activate_after),
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise KeyRingError(
                f"the key ring document is malformed ({type(exc).__name__})"
            ) from None
        return cls(
            keys=keys,
            active_version=active_version,
            blind_index_key=blind_index_key,
            audit_key=audit_key,
        )


def _key_document(key: KeyVersion) -> dict[str, Any]:
    entry: dict[str, Any] = {"version": key.version, "created_at": key.created_at.isoformat()}
    if key.material is not None:
        entry["key"] = base64.b64encode(key.material).decode()
    entry["retired"] = key.retired
    if key.activate_after is not None:
        entry["activate_after"] = key.activate_after.isoformat()
    return entry


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
