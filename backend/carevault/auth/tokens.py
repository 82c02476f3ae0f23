"""Random secrets handed to clients (session cookies, CSRF tokens, API tokens); only their
SHA-256 digests are stored, so a database leak reveals none of them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

API_TOKEN_PREFIX = "cvt_"  # noqa: S105 (a visible prefix, not a secret)


def new_secret(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def new_api_token() -> str:
    return API_TOKEN_PREFIX + secrets.token_urlsafe(32)


def csrf_token_for(session_secret: str) -> str:
    """The CSRF token of a login session, derived from its cookie secret: a reloaded tab can
    get it again from /auth/me (same-origin only; the cookie is SameSite=strict), and nothing
    more is stored than its digest."""
    mac = hmac.new(session_secret.encode(), b"carevault/csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def matches(secret: str, stored_digest: bytes) -> bool:
    return hmac.compare_digest(digest(secret), stored_digest)
