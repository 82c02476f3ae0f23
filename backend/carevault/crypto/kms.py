"""AWS KMS as the key provider: master keys that never leave KMS.

A submodule of its own (boto3), imported only by a process configured with
`CAREVAULT_KEY_PROVIDER=kms`. Every practice data key, blind-index key and the audit key is
made by KMS `GenerateDataKey` under an encryption context naming the practice, the purpose
and the version, stored as the KMS ciphertext (framed as below), and opened by `Decrypt`
under the same context. CareVault never holds a master key: it holds unwrapped data keys in
memory, per practice, for a bounded time (carevault.crypto.datakeys).

Wrapped key format (docs/reference/key-formats.md, "KMS wrapped keys"):

    0x4B ("K") | key id length (2, big-endian) | key id (UTF-8 ARN) | KMS CiphertextBlob

The key id is stored so that a practice moved onto its own key (BYOK) can be checked: the
key KMS says it used must be the one recorded, whatever the ciphertext claims.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Protocol

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from carevault.crypto.errors import (
    DecryptionError,
    KeyAccessRevoked,
    KeyRingError,
    KeyRingUnavailable,
    KeyServiceUnavailable,
)
from carevault.crypto.keyring import KEY_BYTES, KeyRing, KeyVersion
from carevault.crypto.kms_state import KeyState

log = logging.getLogger(__name__)

KMS_WRAPPED_FORMAT = 0x4B
KMS_VERSION = 1  # KMS rotates its own key material: CareVault's version never needs to move
INSTALLATION = "installation"  # the practice named in the context of installation-wide keys
CONTEXT_PRACTICE = "carevault:practice"
CONTEXT_PURPOSE = "carevault:purpose"
CONTEXT_VERSION = "carevault:version"
PURPOSE_DATA = "data"
PURPOSE_BLIND_INDEX = "blind-index"
PURPOSE_AUDIT = "audit"

# Errors that say KMS refused this key for good (until someone changes the key), by code.
_REVOKED = {
    "DisabledException": "kms_key_disabled",
    "KMSInvalidStateException": "kms_key_pending_deletion",
    "NotFoundException": "kms_key_not_found",
    "AccessDeniedException": "kms_access_denied",
    "KeyUnavailableException": "kms_key_unavailable",
}
_THROTTLED = {"ThrottlingException", "LimitExceededException", "RequestLimitExceeded"}
_STATE_CODES = {
    "Disabled": "kms_key_disabled",
    "PendingDeletion": "kms_key_pending_deletion",
    "PendingReplicaDeletion": "kms_key_pending_deletion",
    "Unavailable": "kms_key_unavailable",
}


def encryption_context(workspace: bytes, purpose: str, version: int) -> dict[str, str]:
    """The context a key is generated and opened under: KMS refuses any other."""
    practice = str(uuid.UUID(bytes=workspace)) if workspace else INSTALLATION
    return {CONTEXT_PRACTICE: practice, CONTEXT_PURPOSE: purpose, CONTEXT_VERSION: str(version)}


def frame(key_id: str, blob: bytes) -> bytes:
    encoded = key_id.encode()
    return bytes((KMS_WRAPPED_FORMAT,)) + len(encoded).to_bytes(2, "big") + encoded + blob


def unframe(wrapped: bytes) -> tuple[str, bytes]:
    """(key id, KMS ciphertext) of a stored KMS-wrapped key."""
    if len(wrapped) < 4 or wrapped[0] != KMS_WRAPPED_FORMAT:
        raise DecryptionError("the stored key is not a KMS-wrapped key")
    length = int.from_bytes(wrapped[1:3], "big")
    if len(wrapped) <= 3 + length:
        raise DecryptionError("the KMS-wrapped key is truncated")
    try:
        key_id = wrapped[3 : 3 + length].decode()
    except UnicodeDecodeError:
        raise DecryptionError("the KMS-wrapped key names no readable key id") from None
    return key_id, wrapped[3 + length :]


class KmsKeys:
    """Talks to KMS for one installation: generate, wrap, open, re-wrap data keys.

    Throttling is retried with full-jitter exponential backoff (botocore's own retries are
    off, so this is the only retry loop); a key's state (DescribeKey) is remembered for
    `state_ttl_seconds`, so checking it costs one call per key per interval, not per
    practice. Moto's KMS does not refuse a disabled key or a key pending deletion, nor a
    Decrypt naming another key, and real KMS answers a context mismatch with an opaque
    InvalidCiphertextException: both checks are made here too, with clear messages.
    """

    def __init__(
        self,
        key_id: str,
        *,
        region: str | None = None,
        endpoint_url: str | None = None,
        client: Any = None,
        state_ttl_seconds: float = 300.0,
        max_attempts: int = 6,
        base_delay: float = 0.05,
        max_delay: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not key_id:
            raise KeyRingError("CAREVAULT_KMS_KEY_ID is not set")
        self.key_id = key_id
        self.endpoint_url = endpoint_url
        self.client = client or boto3.client(
            "kms",
            region_name=region,
            endpoint_url=endpoint_url,
            # Short timeouts; retries are ours (jittered, throttling only).
            config=Config(connect_timeout=3, read_timeout=5, retries={"max_attempts": 1}),
        )
        self.state_ttl_seconds = state_ttl_seconds
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._sleep = sleep
        self._states: dict[str, tuple[float, KeyState]] = {}
        self._lock = threading.Lock()
        self._arns: dict[str, str] = {}
        self.calls: dict[str, int] = {}  # by operation, for metrics and tests

    # Key identity and state ----------------------------------------------------------------

    def arn_of(self, key_id: str) -> str:
        """The ARN KMS reports for a key id, alias or ARN (remembered: it never changes)."""
        known = self._arns.get(key_id)
        if known is not None:
            return known
        metadata = self._call("DescribeKey", self.client.describe_key, KeyId=key_id)["KeyMetadata"]
        arn = str(metadata["Arn"])
        self._arns[key_id] = arn
        self._remember_state(arn, metadata)
        return arn

    def state(self, key_id: str, *, fresh: bool = False) -> KeyState:
        now = time.monotonic()
        with self._lock:
            cached = self._states.get(key_id)
        if cached is not None and not fresh and now - cached[0] < self.state_ttl_seconds:
            return cached[1]
        try:
            metadata = self._call("DescribeKey", self.client.describe_key, KeyId=key_id)[
                "KeyMetadata"
            ]
        except KeyAccessRevoked as revoked:
            state = KeyState(key_id, revoked.code, datetime.now(UTC))
            with self._lock:
                self._states[key_id] = (now, state)
            return state
        except KeyServiceUnavailable:
            # Remembered so readiness says so; the call that needs the key fails on its own.
            with self._lock:
                self._states[key_id] = (now, KeyState(key_id, "unreachable", datetime.now(UTC)))
            raise
        return self._remember_state(key_id, metadata)

    def _remember_state(self, key_id: str, metadata: Mapping[str, Any]) -> KeyState:
        deletion = metadata.get("DeletionDate")
        state = KeyState(
            key_id,
            str(metadata.get("KeyState") or ("Enabled" if metadata.get("Enabled") else "Disabled")),
            datetime.now(UTC),
            deletion if isinstance(deletion, datetime) else None,
        )
        with self._lock:
            self._states[key_id] = (time.monotonic(), state)
        return state

    def known_states(self) -> list[KeyState]:
        with self._lock:
            return [state for _, state in self._states.values()]

    def forget_state(self, key_id: str | None = None) -> None:
        with self._lock:
            if key_id is None:
                self._states.clear()
            else:
                self._states.pop(key_id, None)

    def require_usable(self, key_id: str) -> None:
        """Refuse a key KMS reports as disabled or pending deletion (checked at most once
        per state interval)."""
        state = self.state(key_id)
        code = _STATE_CODES.get(state.state) or (
            state.state if state.state.startswith("kms_") else None
        )
        if code is not None:
            raise KeyAccessRevoked(code, f"KMS key {key_id} is {describe_code(code)}")

    # Operations ----------------------------------------------------------------------------

    def generate(
        self, workspace: bytes, purpose: str, version: int, key_id: str | None = None
    ) -> tuple[bytes, bytes]:
        """(plaintext data key, stored wrapped key) from GenerateDataKey."""
        target = self.arn_of(key_id or self.key_id)
        self.require_usable(target)
        response = self._call(
            "GenerateDataKey",
            self.client.generate_data_key,
            KeyId=target,
            KeySpec="AES_256",
            EncryptionContext=encryption_context(workspace, purpose, version),
        )
        self._check_key(target, response)
        plaintext = bytes(response["Plaintext"])
        if len(plaintext) != KEY_BYTES:
            raise KeyRingError("KMS returned a data key of the wrong length")
        return plaintext, frame(target, bytes(response["CiphertextBlob"]))

    def wrap(
        self,
        workspace: bytes,
        purpose: str,
        version: int,
        plaintext: bytes,
        key_id: str | None = None,
    ) -> bytes:
        """Encrypt an existing key under a KMS key (used only when the key itself must stay,
        e.g. a blind-index key whose indexes are stored)."""
        target = self.arn_of(key_id or self.key_id)
        self.require_usable(target)
        response = self._call(
            "Encrypt",
            self.client.encrypt,
            KeyId=target,
            Plaintext=plaintext,
            EncryptionContext=encryption_context(workspace, purpose, version),
        )
        self._check_key(target, response)
        return frame(target, bytes(response["CiphertextBlob"]))

    def unwrap(self, workspace: bytes, purpose: str, version: int, wrapped: bytes) -> bytes:
        key_id, blob = unframe(wrapped)
        self.require_usable(key_id)
        response = self._call(
            "Decrypt",
            self.client.decrypt,
            CiphertextBlob=blob,
            KeyId=key_id,
            EncryptionContext=encryption_context(workspace, purpose, version),
        )
        self._check_key(key_id, response)
        plaintext = bytes(response["Plaintext"])
        if len(plaintext) != KEY_BYTES:
            raise DecryptionError("KMS opened a key of the wrong length")
        return plaintext

    def rewrap(
        self, workspace: bytes, purpose: str, version: int, wrapped: bytes, key_id: str
    ) -> bytes:
        """The same key wrapped under `key_id` (ReEncrypt: the key never leaves KMS)."""
        source, blob = unframe(wrapped)
        target = self.arn_of(key_id)
        self.require_usable(source)
        self.require_usable(target)
        context = encryption_context(workspace, purpose, version)
        response = self._call(
            "ReEncrypt",
            self.client.re_encrypt,
            CiphertextBlob=blob,
            SourceKeyId=source,
            SourceEncryptionContext=context,
            DestinationKeyId=target,
            DestinationEncryptionContext=context,
        )
        if response.get("SourceKeyId") != source:
            raise DecryptionError("KMS re-wrapped a key under another key than the one stored")
        self._check_key(target, response)
        return frame(target, bytes(response["CiphertextBlob"]))

    def schedule_deletion(self, key_id: str, days: int) -> datetime | None:
        """Only the key's own account may schedule its deletion, so the bare key id (which
        KMS resolves in this account) is as good as the ARN, and some emulators want it."""
        bare = key_id.rsplit(":key/", 1)[-1]
        response = self._call(
            "ScheduleKeyDeletion",
            self.client.schedule_key_deletion,
            KeyId=bare,
            PendingWindowInDays=days,
        )
        self.forget_state(key_id)
        deletion = response.get("DeletionDate")
        return deletion if isinstance(deletion, datetime) else None

    @staticmethod
    def _check_key(expected: str, response: Mapping[str, Any]) -> None:
        used = response.get("KeyId")
        if used != expected:
            # Never trust the ciphertext's own claim: the stored id is what we authorised.
            raise DecryptionError(f"KMS used key {used} where {expected} was expected")

    def _call(self, operation: str, method: Callable[..., Any], **kwargs: Any) -> Any:
        attempt = 0
        while True:
            attempt += 1
            with self._lock:
                self.calls[operation] = self.calls.get(operation, 0) + 1
            try:
                with _kms_errors(operation):
                    return method(**kwargs)
            except _Throttled:
                if attempt >= self.max_attempts:
                    raise KeyServiceUnavailable(
                        f"KMS kept throttling {operation} ({attempt} attempts)"
                    ) from None
                # Full jitter: concurrent processes spread out instead of retrying in step.
                delay = random.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))  # noqa: S311
                log.info("KMS throttled %s; retrying in %.3f s", operation, delay)
                self._sleep(delay)


class _Throttled(Exception):
    pass


def describe_code(code: str) -> str:
    return {
        "kms_key_disabled": "disabled",
        "kms_key_pending_deletion": "scheduled for deletion",
        "kms_key_not_found": "not found (deleted, or in another account or region)",
        "kms_access_denied": "not usable by CareVault (access denied by its key policy)",
        "kms_key_unavailable": "unavailable",
    }.get(code, code)


@contextmanager
def _kms_errors(operation: str) -> Iterator[None]:
    """Boto errors as CareVault's: the AWS error code, never a message (which could quote
    request data)."""
    try:
        yield
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", "error"))
        if code in _THROTTLED:
            raise _Throttled from None
        if code in _REVOKED:
            revoked = _REVOKED[code]
            raise KeyAccessRevoked(
                revoked, f"KMS refused {operation}: the key is {describe_code(revoked)}"
            ) from None
        if code in ("InvalidCiphertextException", "IncorrectKeyException"):
            raise DecryptionError(
                f"KMS refused {operation} ({code}): the wrapped key does not match its "
                "encryption context (practice, purpose, version) or key; it was moved or altered"
            ) from None
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if code in ("KMSInternalException", "DependencyTimeoutException") or status >= 500:
            raise KeyServiceUnavailable(f"KMS failed {operation} ({code})") from None
        raise KeyRingError(f"KMS refused {operation} ({code})") from None
    except BotoCoreError as exc:
        raise KeyServiceUnavailable(
            f"KMS unreachable ({type(exc).__name__}) trying {operation}"
        ) from None


class InstallationKeyStore(Protocol):
    """Where the installation-wide keys' KMS ciphertexts are kept (the database; wired by
    carevault.runtime, since this package imports nothing else of CareVault's)."""

    def read(self) -> Mapping[str, bytes]: ...

    def add_missing(self, keys: Mapping[str, bytes]) -> Mapping[str, bytes]:
        """Insert the purposes not yet stored (a concurrent writer's win is kept); return
        everything stored afterwards."""
        ...


class KmsProvider:
    """The `KeyProvider` for KMS: a ring of one remote version, whose blind-index and audit
    keys are KMS data keys opened at load. It never stores a ring (there is nothing to
    store: `keys rotate` maps onto KMS's own rotation)."""

    def __init__(self, keys: KmsKeys, store: InstallationKeyStore) -> None:
        self.keys = keys
        self.installation_keys = store
        self._ring: KeyRing | None = None
        self._stored: Mapping[str, bytes] | None = None

    @property
    def description(self) -> str:
        where = f" at {self.keys.endpoint_url}" if self.keys.endpoint_url else ""
        return f"AWS KMS key {self.keys.key_id}{where}"

    def load(self) -> KeyRing:
        try:
            stored = dict(self.installation_keys.read())
        except KeyRingError:
            raise
        except Exception as exc:
            raise KeyRingUnavailable(
                f"cannot read the installation keys ({type(exc).__name__}); run "
                "`carevault db upgrade` and `carevault keys init`"
            ) from None
        if PURPOSE_BLIND_INDEX not in stored:
            raise KeyRingUnavailable(
                "no installation keys in the database yet (`carevault keys init` creates them)"
            )
        if self._ring is not None and stored == self._stored:
            # The same object: practices' unwrapped keys stay valid for it (datakeys).
            return self._ring
        ring = self._build(stored)
        self._ring, self._stored = ring, stored
        return ring

    def _build(self, stored: Mapping[str, bytes]) -> KeyRing:
        index_key = self.keys.unwrap(b"", PURPOSE_BLIND_INDEX, KMS_VERSION, stored["blind-index"])
        audit = stored.get(PURPOSE_AUDIT)
        audit_key = self.keys.unwrap(b"", PURPOSE_AUDIT, KMS_VERSION, audit) if audit else None
        first = KeyVersion(
            version=KMS_VERSION,
            material=None,
            created_at=datetime(2000, 1, 1, tzinfo=UTC),
            remote=True,
        )
        return KeyRing(
            keys={KMS_VERSION: first},
            active_version=KMS_VERSION,
            blind_index_key=index_key,
            audit_key=audit_key,
            remote=self.keys,
        )

    def store(self, ring: KeyRing) -> None:
        raise KeyRingError(
            "with CAREVAULT_KEY_PROVIDER=kms there is no ring to rotate: enable KMS automatic "
            "key rotation (no re-encryption needed), or move practices to another KMS key "
            "with `carevault workspaces set-key`"
        )

    def initialize(self, before_create: Callable[[], None] | None = None) -> tuple[KeyRing, bool]:
        try:
            return self.load(), False
        except KeyRingUnavailable as missing:
            if "no installation keys" not in str(missing):
                raise
        if before_create is not None:
            before_create()
        wanted = {
            purpose: self.keys.generate(b"", purpose, KMS_VERSION)[1]
            for purpose in (PURPOSE_BLIND_INDEX, PURPOSE_AUDIT)
        }
        self.installation_keys.add_missing(wanted)
        return self.load(), True
