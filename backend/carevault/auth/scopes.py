"""What an API token may be given: scopes per resource, and which roles may hold each.

Which scopes an operation needs is declared by the operation itself
(carevault.auth.permissions); this module is the vocabulary and the role table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from carevault.auth.models import Role
from carevault.core.fields import invalid

Scope = Literal[
    "notes:read",
    "notes:write",
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "audit:read",
    "system:read",
    "events:read",
]
EVERY_SCOPE: tuple[str, ...] = get_args(Scope)

# What each role may ever do, as scopes: a token never holds one its user's role lacks (it is
# refused when the token is created). Clinicians read neither the audit trail nor the
# detailed readiness report, nor the change feed (it names every chart's changes, care teams
# or not).
OWNER_ONLY_SCOPES = frozenset({"audit:read", "system:read", "events:read"})
ROLE_SCOPES: dict[Role, frozenset[str]] = {
    Role.OWNER: frozenset(EVERY_SCOPE),
    Role.CLINICIAN: frozenset(EVERY_SCOPE) - OWNER_ONLY_SCOPES,
}


def scopes_beyond_role(role: str, scopes: set[str] | frozenset[str]) -> list[str]:
    """The scopes among `scopes` that `role` can never use, in EVERY_SCOPE order."""
    allowed = ROLE_SCOPES[Role(role)]
    return [scope for scope in EVERY_SCOPE if scope in scopes and scope not in allowed]


def refuse_scopes_beyond_role(role: str, scopes: Sequence[str]) -> None:
    """A 422 `scope_not_allowed` naming the scopes `role` can never use (`details[].scopes`),
    when the credential is created rather than with a 403 on its first use."""
    beyond = scopes_beyond_role(role, set(scopes))
    if beyond:
        refusal = invalid(
            "scope_not_allowed",
            f"a {role} can never use {', '.join(beyond)}; leave it out",
            "scopes",
        )
        refusal.details = [{**detail, "scopes": beyond} for detail in refusal.details]
        raise refusal
