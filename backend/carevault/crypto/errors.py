"""Errors raised by the encryption core. Messages never carry plaintext or key bytes."""


class DecryptionError(Exception):
    """A stored value could not be decrypted and authenticated.

    Raised for tampered or truncated bytes, a value bound to another column, an unknown or
    retired key version, or a wrong key. Nothing is ever returned in its place.
    """


class KeyRingError(Exception):
    """The key ring is missing, malformed or cannot be reached."""


class KeyRingUnavailable(KeyRingError):
    """The key provider could not be reached (network, permissions, missing secret)."""


class UnknownKeyVersion(DecryptionError):
    """A value names a master key version this process's ring does not have (yet)."""


class MissingDataKey(DecryptionError):
    """A value needs a practice data key this process has not loaded (yet)."""


class KeyServiceUnavailable(KeyRingUnavailable):
    """The remote key service (KMS) cannot be reached, or keeps throttling: transient."""


class KeyAccessRevoked(KeyRingError):
    """The key service refuses a key for good until someone changes it: disabled, scheduled
    for deletion, deleted, or its policy no longer lets CareVault use it. `code` names which
    (kms_key_disabled, kms_key_pending_deletion, kms_key_not_found, kms_access_denied)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
