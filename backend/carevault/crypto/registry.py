"""The process-wide field cipher that `EncryptedString` uses.

Installed once at start-up (or by a test). Column types are created at import time, long
before keys exist, so they look the cipher up here when a value is bound or read.
"""

from __future__ import annotations

from enum import StrEnum

from carevault.crypto.cipher import FieldCipher
from carevault.crypto.errors import KeyRingError


class PhiBackend(StrEnum):
    AESGCM = "aesgcm"
    PGCRYPTO = "pgcrypto"


_cipher: FieldCipher | None = None
_backend: PhiBackend = PhiBackend.AESGCM


def install(cipher: FieldCipher, backend: PhiBackend = PhiBackend.AESGCM) -> None:
    """Make `cipher` the one every encrypted column uses.

    The backend shapes compiled SQL, so create database engines after calling this.
    """
    global _cipher, _backend
    _cipher = cipher
    _backend = PhiBackend(backend)


def uninstall() -> None:
    global _cipher, _backend
    _cipher = None
    _backend = PhiBackend.AESGCM


def current_cipher() -> FieldCipher:
    if _cipher is None:
        raise KeyRingError("encryption is not configured: no key ring has been installed")
    return _cipher


def current_backend() -> PhiBackend:
    return _backend


class OperationCounts:
    """Plain integers bumped on every field operation; read by the metrics collector."""

    __slots__ = ("decrypted", "encrypted", "failed")

    def __init__(self) -> None:
        self.encrypted = 0
        self.decrypted = 0
        self.failed = 0


_counts = OperationCounts()


def operation_counts() -> OperationCounts:
    return _counts
