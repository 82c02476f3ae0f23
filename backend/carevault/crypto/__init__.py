"""CareVault's encryption core. Depends on no web framework and no domain code."""

from carevault.crypto.blind_index import BlindIndex, normalize_email, normalize_phone
from carevault.crypto.cipher import FieldCipher, RingSource, StaticRing
from carevault.crypto.errors import DecryptionError, KeyRingError, KeyRingUnavailable
from carevault.crypto.keyring import KeyRing, KeyVersion
from carevault.crypto.manager import KeyRingManager, KeyRingStatus
from carevault.crypto.providers import (
    EnvironmentProvider,
    KeyProvider,
    LocalFileProvider,
    SecretsManagerProvider,
)
from carevault.crypto.registry import PhiBackend, current_cipher, install, uninstall
from carevault.crypto.types import EncryptedDate, EncryptedString

__all__ = [
    "BlindIndex",
    "DecryptionError",
    "EncryptedDate",
    "EncryptedString",
    "EnvironmentProvider",
    "FieldCipher",
    "KeyProvider",
    "KeyRing",
    "KeyRingError",
    "KeyRingManager",
    "KeyRingStatus",
    "KeyRingUnavailable",
    "KeyVersion",
    "LocalFileProvider",
    "PhiBackend",
    "RingSource",
    "SecretsManagerProvider",
    "StaticRing",
    "current_cipher",
    "install",
    "normalize_email",
    "normalize_phone",
    "uninstall",
]
