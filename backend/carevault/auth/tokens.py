"""Random secrets handed to clients (session cookies, CSRF tokens, API tokens); only their
SHA-256 digests are stored, so a database leak reveals none of them."""

from __future__ import annotations

import hashlib
import hmac
import secrets

API_TOKEN_PREFIX = "cvt_"  # noqa: S105 (a visible prefix, not a secret)


def new_secret(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def new_api_token() -> str:
    return API_TOKEN_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def matches(secret: str, stored_digest: bytes) -> bool:
    return hmac.compare_digest(digest(secret), stored_digest)
