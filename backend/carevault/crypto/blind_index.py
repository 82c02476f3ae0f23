"""Blind indexes: keyed hashes of normalised values for exact-match lookups.

HMAC-SHA256 under a key separate from every encryption key: the practice's own blind-index
key (`PracticeBlindIndex`, for everything written since practice keys exist; destroyed when
the practice is shredded, so its indexes can no longer confirm a guess) or, for rows written
before, the ring-wide key (`BlindIndex`). The kind ("email", "phone") and a scope (the
workspace) are part of the hashed input, so the same address in two workspaces, or an email
equal to a phone string, never collide.

Phone numbers have two kinds. `phone-e164` takes a number already in E.164 form
(`+442079460018`): reading what a clinician typed into that form depends on the practice's
region and on libphonenumber, which belong to the application (carevault.workspaces.phones),
not to this library, so this module only checks the shape. `phone` is the digits-only
index written before E.164 existed here (migration 0016), kept so those rows are found until
they are reindexed, and for stored text that never read as a phone number.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
import uuid

from carevault.crypto.cipher import FieldCipher, RingSource

BLIND_INDEX_BYTES = 32
_NON_DIGITS = re.compile(r"\D")
# "+", a country code that does not start with 0, and the rest: at most 20 digits in all
# (E.164 allows 15; libphonenumber reads some national numbers longer than that).
_E164 = re.compile(r"\+[1-9][0-9]{1,19}", re.ASCII)


def normalize_email(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip().lower()


def normalize_phone_digits(value: str) -> str:
    """The `phone` kind (before E.164): every decimal digit, nothing else."""
    return _NON_DIGITS.sub("", unicodedata.normalize("NFKC", value))


def checked_e164(value: str) -> str:
    """The `phone-e164` kind: the value as given, which must already be E.164."""
    if not _E164.fullmatch(value):
        raise ValueError("a phone-e164 blind index needs a number in E.164 form (+ and digits)")
    return value


def exact(value: str) -> str:
    """Integrators' own ids (`external-id:<type>`): compared exactly, as given."""
    return value


_NORMALIZERS = {
    "email": normalize_email,
    "phone": normalize_phone_digits,
    "phone-e164": checked_e164,
    "external-id:client": exact,
    "external-id:appointment": exact,
    "external-id:session": exact,
}


class BlindIndex:
    """Under the ring-wide blind-index key (rows written before practice keys existed)."""

    def __init__(self, source: RingSource) -> None:
        self._source = source

    def key_for(self, scope: str) -> bytes:
        return self._source.ring.blind_index_key

    def compute(self, kind: str, value: str | None, scope: str) -> bytes | None:
        """The index of `value`, or None when it normalises to nothing."""
        if value is None:
            return None
        normalized = _NORMALIZERS[kind](value)
        if not normalized:
            return None
        message = b"\x00".join((kind.encode(), scope.encode(), normalized.encode()))
        return hmac.new(self.key_for(scope), message, hashlib.sha256).digest()

    def email(self, value: str | None, scope: str) -> bytes | None:
        return self.compute("email", value, scope)

    def phone(self, e164: str | None, scope: str) -> bytes | None:
        """The index of a number in E.164 form (ValueError for anything else)."""
        return self.compute("phone-e164", e164, scope)

    def phone_digits(self, value: str | None, scope: str) -> bytes | None:
        """The digits-only index rows written before E.164 carry (kind `phone`)."""
        return self.compute("phone", value, scope)


class PracticeBlindIndex(BlindIndex):
    """Under the practice's own blind-index key; `scope` is the practice's workspace id."""

    def __init__(self, cipher: FieldCipher) -> None:
        super().__init__(cipher)
        self._cipher = cipher

    def key_for(self, scope: str) -> bytes:
        return self._cipher.data_keys.index_key(self._cipher.ring, uuid.UUID(scope).bytes)

    def candidates(self, kind: str, value: str, scope: str) -> list[bytes]:
        """What a search compares with: the practice-key index, and the ring-wide one for
        rows `carevault reencrypt` has not yet moved to the practice key."""
        found = [
            self.compute(kind, value, scope),
            BlindIndex(self._cipher).compute(kind, value, scope),
        ]
        return [index for index in found if index is not None]
