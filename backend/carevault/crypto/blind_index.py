"""Blind indexes: keyed hashes of normalised values for exact-match lookups.

HMAC-SHA256 under the ring's blind-index key, which is separate from every encryption key.
The kind ("email", "phone") and a scope (the workspace) are part of the hashed input, so the
same address in two workspaces, or an email equal to a phone string, never collide.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata

from carevault.crypto.cipher import RingSource

BLIND_INDEX_BYTES = 32
_NON_DIGITS = re.compile(r"\D")


def normalize_email(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip().lower()


def normalize_phone(value: str) -> str:
    return _NON_DIGITS.sub("", unicodedata.normalize("NFKC", value))


_NORMALIZERS = {"email": normalize_email, "phone": normalize_phone}


class BlindIndex:
    def __init__(self, source: RingSource) -> None:
        self._source = source

    def compute(self, kind: str, value: str | None, scope: str) -> bytes | None:
        """The index of `value`, or None when it normalises to nothing."""
        if value is None:
            return None
        normalized = _NORMALIZERS[kind](value)
        if not normalized:
            return None
        message = b"\x00".join((kind.encode(), scope.encode(), normalized.encode()))
        return hmac.new(self._source.ring.blind_index_key, message, hashlib.sha256).digest()

    def email(self, value: str | None, scope: str) -> bytes | None:
        return self.compute("email", value, scope)

    def phone(self, value: str | None, scope: str) -> bytes | None:
        return self.compute("phone", value, scope)
