"""What an API token may do: scopes per resource area, and which routes need which scope.

Decided in one place from the route, so a new router is closed to tokens until it is listed
here (fail closed), and no router can forget the check.
"""

from __future__ import annotations

from typing import Literal, get_args

Scope = Literal[
    "notes:read",
    "notes:write",
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "audit:read",
]
EVERY_SCOPE: tuple[str, ...] = get_args(Scope)

API_PREFIX = "/api/v1"
# Resource areas a token can be given access to, by path prefix under /api/v1.
_AREAS = {"/sessions": "notes", "/clients": "clients", "/appointments": "appointments"}
_READ_ONLY_AREAS = {"/audit-events": "audit"}
# POSTs that only read (a search body keeps the query out of the URL).
_READING_POSTS = frozenset({"/api/v1/clients/search"})
# Any credential may ask who it is; tokens are revoked, not logged out (the route says so).
_ANY_CREDENTIAL = frozenset({"/api/v1/auth/me", "/api/v1/auth/logout"})
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

SESSION_ONLY = "session_only"


def required_scope(method: str, path: str) -> str | None:
    """The scope a token needs for this request; None: none needed; SESSION_ONLY: tokens
    may never do this (user management, tokens, passwords, and anything not listed)."""
    if path in _ANY_CREDENTIAL:
        return None
    if not path.startswith(API_PREFIX + "/"):
        return SESSION_ONLY
    rest = path[len(API_PREFIX) :]
    reading = method.upper() in _SAFE_METHODS or path in _READING_POSTS
    for prefix, area in _AREAS.items():
        if rest == prefix or rest.startswith(prefix + "/"):
            return f"{area}:{'read' if reading else 'write'}"
    for prefix, area in _READ_ONLY_AREAS.items():
        if (rest == prefix or rest.startswith(prefix + "/")) and reading:
            return f"{area}:read"
    return SESSION_ONLY
