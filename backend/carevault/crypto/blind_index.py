"""Blind indexes: keyed hashes of normalised values for exact-match lookups.

HMAC-SHA256 under a key separate from every encryption key: the practice's own blind-index
key (`PracticeBlindIndex`, for everything written since practice keys exist; destroyed when
the practice is shredded, so its indexes can no longer confirm a guess) or, for rows written
before, the ring-wide key (`BlindIndex`). The kind ("email", "phone") and a scope (the
workspace) are part of the hashed input, so the same address in two workspaces, or an email
equal to a phone string, never collide.
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


def normalize_email(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip().lower()


def normalize_phone(value: str) -> str:
    return _NON_DIGITS.sub("", unicodedata.normalize("NFKC", value))


_NORMALIZERS = {"email": normalize_email, "phone": normalize_phone}


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

    def phone(self, value: str | None, scope: str) -> bytes | None:
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
