"""CareVault's encryption core. Depends on no web framework and no domain code.

Importing it needs only `cryptography`. The integrations are submodules, imported where
used: `carevault.crypto.types` (the SQLAlchemy column types `EncryptedString`,
`EncryptedDate`) and `carevault.crypto.aws` (`SecretsManagerProvider`, boto3).
"""

from carevault.crypto.binding import (
    BoundDate,
    BoundText,
    UnboundValueError,
    bind,
    bind_row_values,
    bind_to,
)
from carevault.crypto.blind_index import (
    BlindIndex,
    PracticeBlindIndex,
    checked_e164,
    normalize_email,
    normalize_phone_digits,
)
from carevault.crypto.cipher import FieldCipher, RingSource, StaticRing
from carevault.crypto.datakeys import DataKeyCache, new_wrapped_data_key, unwrap_data_key
from carevault.crypto.errors import (
    DecryptionError,
    KeyRingError,
    KeyRingUnavailable,
    UnknownKeyVersion,
)
from carevault.crypto.keyring import KeyRing, KeyVersion
from carevault.crypto.manager import KeyRingManager, KeyRingStatus
from carevault.crypto.providers import EnvironmentProvider, KeyProvider, LocalFileProvider
from carevault.crypto.registry import PhiBackend, current_cipher, install, uninstall

__all__ = [
    "BlindIndex",
    "BoundDate",
    "BoundText",
    "DataKeyCache",
    "DecryptionError",
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
    "PracticeBlindIndex",
    "RingSource",
    "StaticRing",
    "UnboundValueError",
    "UnknownKeyVersion",
    "bind",
    "bind_row_values",
    "bind_to",
    "checked_e164",
    "current_cipher",
    "install",
    "new_wrapped_data_key",
    "normalize_email",
    "normalize_phone_digits",
    "uninstall",
    "unwrap_data_key",
]
