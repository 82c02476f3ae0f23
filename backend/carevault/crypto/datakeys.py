"""Practice data keys: one random 256-bit key per practice and master version.

Values of format 0x03 are sealed under the data key of the row's practice; the database keeps
each data key only wrapped (AES-256-GCM) under the master version of the same number, with the
practice id and version as associated data, so a wrapped key moved to another practice or
version fails to unwrap. Unwrapped keys live in this process's memory only.

Destroying a practice's wrapped keys (`carevault workspaces shred`) makes its values
unreadable; once the master versions that wrapped them are retired (their material
destroyed), copies of the wrapped keys in old backups are unreadable too.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto import envelope
from carevault.crypto.errors import DecryptionError, KeyRingError, UnknownKeyVersion
from carevault.crypto.keyring import KEY_BYTES, KeyRing, new_key_material

log = logging.getLogger(__name__)

# The practice whose PHI the current request (or job step) works on: the database-side
# backend sends that practice's data keys, and only those, with each statement.
current_practice: ContextVar[bytes | None] = ContextVar("carevault_practice", default=None)

WRAP_LABEL = b"carevault/data-key/1"
INDEX_WRAP_LABEL = b"carevault/blind-index-key/1"
# A read that meets a data key this process lacks reloads the practice's keys at most this
# often (the same bound as the ring's own reload after a miss).
MISS_RELOAD_INTERVAL_SECONDS = 5.0

# Reads one practice's wrapped data keys (version -> wrapped key) from the database, blocking.
DataKeyLoader = Callable[[bytes], Mapping[int, bytes]]
WRAPPED_KEY_BYTES = envelope.GCM_NONCE_BYTES + KEY_BYTES + envelope.GCM_TAG_BYTES
MISSING_KEY_RELOAD_SECONDS = 5.0


def _wrap_associated_data(workspace: bytes, version: int, label: bytes = WRAP_LABEL) -> bytes:
    return label + workspace + version.to_bytes(4, "big")


# What each label's keys are called in a key service's encryption context.
PURPOSE_OF_LABEL = {WRAP_LABEL: "data", INDEX_WRAP_LABEL: "blind-index"}


def wrap_data_key(
    ring: KeyRing,
    workspace: bytes,
    version: int,
    data_key: bytes,
    label: bytes = WRAP_LABEL,
    key_id: str | None = None,
) -> bytes:
    """nonce (12) | AES-256-GCM(master[version], data key) | tag (16); or, when the master
    keys live in a key service, that service's wrapping (carevault.crypto.kms)."""
    if ring.remote is not None:
        if ring.cipher_for(version) is None and not _remote_version(ring, version):
            raise KeyRingError(f"key version {version} cannot wrap: not usable in the ring")
        return ring.remote.wrap(workspace, PURPOSE_OF_LABEL[label], version, data_key, key_id)
    master = ring.cipher_for(version)
    if master is None:
        raise KeyRingError(f"key version {version} cannot wrap: not usable in the ring")
    nonce = os.urandom(envelope.GCM_NONCE_BYTES)
    return nonce + master.encrypt(nonce, data_key, _wrap_associated_data(workspace, version, label))


def _remote_version(ring: KeyRing, version: int) -> bool:
    key = ring.keys.get(version)
    return key is not None and key.remote and not key.retired


def unwrap_data_key(
    ring: KeyRing, workspace: bytes, version: int, wrapped: bytes, label: bytes = WRAP_LABEL
) -> bytes:
    if ring.remote is not None and _remote_version(ring, version):
        return ring.remote.unwrap(workspace, PURPOSE_OF_LABEL[label], version, wrapped)
    master = ring.cipher_for(version)
    if master is None:
        if version in ring.keys:
            raise DecryptionError(f"key version {version} is retired")
        raise UnknownKeyVersion(f"key version {version} is not in the key ring")
    if len(wrapped) != WRAPPED_KEY_BYTES:
        raise DecryptionError("wrapped data key has the wrong length")
    nonce, body = wrapped[: envelope.GCM_NONCE_BYTES], wrapped[envelope.GCM_NONCE_BYTES :]
    try:
        return master.decrypt(nonce, body, _wrap_associated_data(workspace, version, label))
    except InvalidTag:
        raise DecryptionError("wrapped data key failed to authenticate") from None


def new_wrapped_data_key(
    ring: KeyRing, workspace: bytes, version: int, key_id: str | None = None
) -> bytes:
    """A fresh data key, wrapped: made by the key service (GenerateDataKey) when there is
    one, so its plaintext is never chosen here."""
    if ring.remote is not None and _remote_version(ring, version):
        return ring.remote.generate(workspace, PURPOSE_OF_LABEL[WRAP_LABEL], version, key_id)[1]
    return wrap_data_key(ring, workspace, version, new_key_material())


def new_wrapped_index_key(
    ring: KeyRing, workspace: bytes, under: int, data_key: bytes | None = None
) -> bytes:
    """A fresh blind-index key of a practice, wrapped under master version `under`; with a
    key-service ring, under the practice's data key of that version (`data_key`), so one
    key-service call opens both."""
    if ring.remote is not None and _remote_version(ring, under):
        if data_key is None:
            raise KeyRingError("wrapping a blind-index key under KMS needs the data key")
        return wrap_index_key_with(data_key, workspace, under, new_key_material())
    return wrap_index_key(ring, workspace, under, new_key_material())


def wrap_index_key_with(data_key: bytes, workspace: bytes, under: int, index_key: bytes) -> bytes:
    """nonce (12) | AES-256-GCM(practice data key of `under`, index key) | tag (16), with the
    associated data of a master-wrapped index key: the KMS format of a version-0 row."""
    nonce = os.urandom(envelope.GCM_NONCE_BYTES)
    associated = _wrap_associated_data(workspace, under, INDEX_WRAP_LABEL)
    return nonce + AESGCM(data_key).encrypt(nonce, index_key, associated)


def unwrap_index_key_with(data_key: bytes, workspace: bytes, under: int, wrapped: bytes) -> bytes:
    if len(wrapped) != WRAPPED_KEY_BYTES:
        raise DecryptionError("wrapped blind-index key has the wrong length")
    nonce, body = wrapped[: envelope.GCM_NONCE_BYTES], wrapped[envelope.GCM_NONCE_BYTES :]
    associated = _wrap_associated_data(workspace, under, INDEX_WRAP_LABEL)
    try:
        return AESGCM(data_key).decrypt(nonce, body, associated)
    except InvalidTag:
        raise DecryptionError("wrapped blind-index key failed to authenticate") from None


def wrap_index_key(
    ring: KeyRing, workspace: bytes, under: int, index_key: bytes, key_id: str | None = None
) -> bytes:
    """The practice's blind-index key wrapped under master version `under` (its own label,
    so a data key can never be passed off as an index key or the reverse)."""
    return wrap_data_key(ring, workspace, under, index_key, INDEX_WRAP_LABEL, key_id)


def unwrap_index_key(ring: KeyRing, workspace: bytes, under: int, wrapped: bytes) -> bytes:
    return unwrap_data_key(ring, workspace, under, wrapped, INDEX_WRAP_LABEL)


@dataclass
class WorkspaceKeys:
    """What this process knows of one practice's data keys."""

    wrapped: Mapping[int, bytes]
    loaded_at: float
    # Unwrapped ciphers keyed by the 0x03 header they seal; valid for `ring` only, because a
    # refreshed ring may have retired (destroyed) a master version.
    ciphers: dict[bytes, AESGCM] = field(default_factory=dict)
    materials: dict[int, bytes] = field(default_factory=dict)
    ring: KeyRing | None = None
    # The blind-index key: (master version it is wrapped under, wrapped bytes).
    wrapped_index_key: tuple[int, bytes] | None = None
    index_key: bytes | None = None
    # What `sealing_key` last answered for `ring`: (the ring's encryption version then,
    # (version sealed under, its 0x03 header, cipher)). Reset with `ciphers`.
    sealing: tuple[int, tuple[int, bytes, AESGCM]] | None = None
    # Requests served from this entry since it was loaded (the use limit of a key-service
    # ring), and whether every key of it is unwrapped for `ring` (`DataKeyCache.open_entry`).
    uses: int = 0
    prepared: bool = False
    # When every key was last opened (by the key service, for a key-service ring).
    opened_at: float = float("-inf")

    def unwrapped_for(self, ring: KeyRing) -> None:
        """Drop everything unwrapped under another ring before using this entry with `ring`."""
        if self.ring is not ring:
            self.ciphers, self.materials, self.index_key, self.sealing = {}, {}, None, None
            self.prepared = False
            self.ring = ring


class DataKeyCache:
    """Per-process cache of practice data keys, filled off the hot path.

    The request path calls `needs_load` (a dict lookup and a clock read) before touching PHI;
    the caller then reads the practice's wrapped keys from the database once and `store`s
    them. Field operations only look keys up here: they never do I/O, except the rare,
    rate-limited `reload_after_miss`.
    """

    def __init__(
        self,
        max_age_seconds: float = 300.0,
        loader: DataKeyLoader | None = None,
        max_uses: int | None = None,
    ) -> None:
        self.max_age_seconds = max_age_seconds
        # With a key-service ring: reload (and ask the service again) after this many
        # requests of one practice, whatever the age. None: no limit.
        self.max_uses = max_uses
        self._entries: dict[bytes, WorkspaceKeys] = {}
        self._lock = threading.Lock()
        # Set where a database is at hand (the API): used only by `reload_after_miss`.
        self.loader = loader
        self._last_miss_reload: dict[bytes, float] = {}

    def needs_load(self, workspace: bytes, ring: KeyRing) -> bool:
        entry = self._entries.get(workspace)
        if entry is None:
            return True
        age = time.monotonic() - entry.loaded_at
        if age > self.max_age_seconds:
            return True
        if self.max_uses is not None and entry.uses >= self.max_uses:
            return True
        # A version this practice may seal under soon but whose wrapped key we have not seen
        # (created by a rotation after we loaded): look again, at most every few seconds.
        wanted = ring.pending_version or ring.active_version
        return wanted not in entry.wrapped and age > MISSING_KEY_RELOAD_SECONDS

    def store(
        self,
        workspace: bytes,
        wrapped: Mapping[int, bytes],
        index_key: tuple[int, bytes] | None = None,
    ) -> None:
        with self._lock:
            self._entries[workspace] = WorkspaceKeys(
                dict(wrapped), time.monotonic(), wrapped_index_key=index_key
            )

    def ready(self, workspace: bytes, ring: KeyRing) -> bool:
        """Whether the practice's keys are loaded, fresh and all unwrapped for `ring`: a
        request of a warm practice then makes no key-service call at all. Counts a use."""
        entry = self._entries.get(workspace)
        if entry is None or not entry.prepared or entry.ring is not ring:
            return False
        entry.uses += 1
        return not self.needs_load(workspace, ring)

    def entry(self, workspace: bytes) -> WorkspaceKeys | None:
        return self._entries.get(workspace)

    def restore(self, workspace: bytes, entry: WorkspaceKeys, retry_in: float) -> None:
        """Put back an earlier, prepared entry (the key service could not be reached to
        open the fresh copy): it serves on and is tried again after `retry_in` seconds."""
        entry.loaded_at = time.monotonic() - max(0.0, self.max_age_seconds - retry_in)
        entry.uses = 0
        with self._lock:
            self._entries[workspace] = entry

    def open_entry(self, ring: KeyRing, workspace: bytes, entry: WorkspaceKeys) -> None:
        """Unwrap every key of an entry not yet in the cache (blocking: with a key-service
        ring this calls the service), so that `install` swaps in a ready entry and requests
        using the current one never meet a half-opened copy."""
        entry.unwrapped_for(ring)
        for version, wrapped in sorted(entry.wrapped.items()):
            if version not in ring.keys or not ring.keys[version].usable:
                continue  # retired or unknown: its values are refused when read
            entry.materials[version] = unwrap_data_key(ring, workspace, version, wrapped)
        if entry.wrapped_index_key is not None:
            under, wrapped_index = entry.wrapped_index_key
            if ring.remote is not None and _remote_version(ring, under):
                data_key = entry.materials.get(under)
                if data_key is None:
                    raise KeyRingError(
                        "the practice's blind-index key is wrapped under a data key it lacks"
                    )
                entry.index_key = unwrap_index_key_with(data_key, workspace, under, wrapped_index)
            else:
                entry.index_key = unwrap_index_key(ring, workspace, under, wrapped_index)
        entry.prepared = True
        entry.opened_at = time.monotonic()

    def install(self, workspace: bytes, entry: WorkspaceKeys) -> None:
        with self._lock:
            self._entries[workspace] = entry

    def forget(self, workspace: bytes) -> None:
        with self._lock:
            self._entries.pop(workspace, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def mark_stale(self, workspace: bytes) -> None:
        """Reload this practice's keys before its next request (a key we lacked was seen)."""
        entry = self._entries.get(workspace)
        if entry is not None:
            entry.loaded_at = float("-inf")

    def reload_after_miss(self, workspace: bytes) -> bool:
        """Reload the practice's wrapped keys now, because a value needs one this process
        has not loaded: a process whose ring was refreshed only by that same read has not
        seen the practice's key of the new version either. Blocking, and at most once per
        MISS_RELOAD_INTERVAL_SECONDS per practice. True when a key was added."""
        entry = self._entries.get(workspace)
        # Keys never loaded at all is a caller's mistake (load them before touching PHI).
        if self.loader is None or entry is None:
            return False
        with self._lock:
            now = time.monotonic()
            if now - self._last_miss_reload.get(workspace, float("-inf")) < (
                MISS_RELOAD_INTERVAL_SECONDS
            ):
                return False
            self._last_miss_reload[workspace] = now
        try:
            wrapped = dict(self.loader(workspace))
        except Exception as exc:  # the read then fails as it would have without the reload
            log.warning("reloading a practice's data keys failed (%s)", type(exc).__name__)
            return False
        known = set(entry.wrapped)
        self.store(workspace, wrapped, entry.wrapped_index_key)  # the index key is unchanged
        return bool(set(wrapped) - known)

    def count_loaded(self) -> int:
        return len(self._entries)

    def loaded(self, workspace: bytes) -> bool:
        return workspace in self._entries

    def cipher(self, ring: KeyRing, workspace: bytes, head: bytes) -> AESGCM | None:
        """The data-key cipher for a 0x03 header, unwrapping on first use; None if this
        practice has no wrapped key of that version here."""
        entry = self._entries.get(workspace)
        if entry is None:
            return None
        entry.unwrapped_for(ring)
        cipher = entry.ciphers.get(head)
        if cipher is None:
            material = self.material(ring, workspace, int.from_bytes(head[1:], "big"))
            if material is None:
                return None
            cipher = AESGCM(material)
            entry.ciphers[head] = cipher
        return cipher

    def material(self, ring: KeyRing, workspace: bytes, version: int) -> bytes | None:
        """The raw data key (the database-side backend sends it as a bound parameter)."""
        entry = self._entries.get(workspace)
        if entry is None:
            return None
        entry.unwrapped_for(ring)
        material = entry.materials.get(version)
        if material is None:
            wrapped = entry.wrapped.get(version)
            if wrapped is None:
                return None
            material = unwrap_data_key(ring, workspace, version, wrapped)
            entry.materials[version] = material
        return material

    def versions(self, workspace: bytes) -> list[int]:
        entry = self._entries.get(workspace)
        return sorted(entry.wrapped) if entry else []

    def index_key(self, ring: KeyRing, workspace: bytes) -> bytes:
        """The practice's blind-index key, unwrapped on first use."""
        entry = self._entries.get(workspace)
        if entry is None or entry.wrapped_index_key is None:
            raise KeyRingError("the practice's blind-index key is not loaded in this process")
        entry.unwrapped_for(ring)
        if entry.index_key is None:
            under, wrapped = entry.wrapped_index_key
            if ring.remote is not None and _remote_version(ring, under):
                # Wrapped under the practice's data key of `under`: no key-service call more.
                data_key = self.material(ring, workspace, under)
                if data_key is None:
                    raise KeyRingError(
                        "the practice's blind-index key is wrapped under a data key it lacks"
                    )
                entry.index_key = unwrap_index_key_with(data_key, workspace, under, wrapped)
            else:
                entry.index_key = unwrap_index_key(ring, workspace, under, wrapped)
        return entry.index_key

    def cached(self, ring: KeyRing, workspace: bytes, head: bytes) -> AESGCM | None:
        """The data-key cipher for a 0x03 header if it is already unwrapped for `ring`, else
        None. Never unwraps and never raises: the read path's first, cheapest try."""
        entry = self._entries.get(workspace)
        if entry is None or entry.ring is not ring:
            return None
        return entry.ciphers.get(head)

    def sealing_key(self, ring: KeyRing, workspace: bytes) -> tuple[int, bytes, AESGCM]:
        """(version, 0x03 header, data-key cipher) a new value of this practice is sealed
        with: `sealing_version`, then `cipher`, remembered for as long as the ring object and
        its encryption version stay the same (`store` makes a new entry; a new ring resets
        it), so every write after the first is one dict lookup and one comparison."""
        entry = self._entries.get(workspace)
        wanted = ring.encryption_version()  # changes by itself when a pending version activates
        if entry is not None and entry.ring is ring:
            remembered = entry.sealing
            if remembered is not None and remembered[0] == wanted:
                return remembered[1]
        version = self.sealing_version(ring, workspace)
        head = envelope.header(envelope.FORMAT_BOUND, version)
        cipher = self.cipher(ring, workspace, head)
        if cipher is None:
            raise KeyRingError(f"the practice has no data key of key version {version} here")
        key = (version, head, cipher)
        entry = self._entries.get(workspace)
        if entry is not None and entry.ring is ring:
            entry.sealing = (wanted, key)
        return key

    def sealing_version(self, ring: KeyRing, workspace: bytes) -> int:
        """The version a new value of this practice is sealed under: the ring's current one,
        or the newest older one this practice has a key for (a practice created by a process
        that had not yet seen a rotation); `reencrypt` later moves such values up."""
        entry = self._entries.get(workspace)
        if entry is None:
            raise KeyRingError(
                "the practice's data keys are not loaded in this process (load them before "
                "writing PHI)"
            )
        version = ring.encryption_version()
        if version in entry.wrapped:
            return version
        older = [v for v in entry.wrapped if v < version and ring.cipher_for(v) is not None]
        if not older:
            raise KeyRingError(
                f"the practice has no data key for key version {version}; run "
                "`carevault keys provision`"
            )
        return max(older)
