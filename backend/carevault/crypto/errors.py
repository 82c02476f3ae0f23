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
