"""What an API token may be given: scopes per resource, and which roles may hold each.

Which scopes an operation needs is declared by the operation itself
(carevault.auth.permissions); this module is the vocabulary and the role table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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


# --- SMART App Launch v2 scopes (docs/reference/fhir.md) -----------------------------------------
# A SMART scope names a FHIR resource type and what may be done to it; a token created with
# one holds the CareVault scopes it maps onto (so /api/v1 and /fhir/R4 decide alike) and the
# SMART scope itself, which the FHIR endpoint checks per resource type on top.

SMART_CONTEXTS = ("user", "system")
# FHIR resource type -> the CareVault resource whose scope it needs; None: no CareVault scope
# (staff and the practice are no PHI: any credential reads them).
SMART_RESOURCES: dict[str, str | None] = {
    "Patient": "clients",
    "Appointment": "appointments",
    "Encounter": "notes",
    "DocumentReference": "notes",
    "Provenance": "notes",
    "AuditEvent": "audit",
    "Practitioner": None,
    "PractitionerRole": None,
    "Organization": None,
}
# `*` stands for the clinical resources; the audit trail is named on its own
# (`user/AuditEvent.rs`), so a wildcard never asks for an owner-only scope.
SMART_WILDCARD = ("clients", "appointments", "notes")
_SMART_V1 = {"read": "rs", "write": "cud", "*": "cruds"}
_PERMISSIONS = "cruds"


class SmartScopeError(ValueError):
    """A SMART scope CareVault does not grant; the message names it (scopes are no PHI)."""


@dataclass(frozen=True, slots=True)
class SmartScope:
    context: str  # user | system
    resource_type: str  # a FHIR type, or "*"
    permissions: str  # a subset of "cruds", in that order

    def allows(self, resource_type: str, permission: str) -> bool:
        return self.resource_type in ("*", resource_type) and permission in self.permissions


def is_smart_scope(scope: str) -> bool:
    return "/" in scope


def parse_smart_scope(scope: str) -> SmartScope:
    """`user/Patient.rs`, `system/*.cruds`, or SMART v1's `user/Patient.read`."""
    context, _, rest = scope.partition("/")
    resource_type, _, permissions = rest.partition(".")
    if context == "patient" or scope.startswith("launch") or context not in SMART_CONTEXTS:
        raise SmartScopeError(
            f"{scope!r}: only user/ and system/ SMART scopes are granted (patient/ scopes need "
            "an EHR launch, which CareVault does not offer yet)"
        )
    if resource_type != "*" and resource_type not in SMART_RESOURCES:
        raise SmartScopeError(f"{scope!r}: {resource_type} is not a resource CareVault serves")
    permissions = _SMART_V1.get(permissions, permissions)
    if (
        not permissions
        or any(letter not in _PERMISSIONS for letter in permissions)
        or "".join(sorted(permissions, key=_PERMISSIONS.index)) != permissions
        or len(set(permissions)) != len(permissions)
    ):
        raise SmartScopeError(f"{scope!r}: permissions are letters of 'cruds', in that order")
    return SmartScope(context, resource_type, permissions)


def carevault_scopes_of(smart: SmartScope) -> set[str]:
    """The CareVault scopes a SMART scope grants: r and s read, c u d write."""
    if smart.resource_type == "*":
        resources: tuple[str, ...] = SMART_WILDCARD
    else:
        own = SMART_RESOURCES[smart.resource_type]
        resources = (own,) if own else ()
    found: set[str] = set()
    for resource in resources:
        if set(smart.permissions) & set("rs"):
            found.add(f"{resource}:read")
        if set(smart.permissions) & set("cud") and resource != "audit":
            found.add(f"{resource}:write")
    return found


def expand_scopes(requested: Sequence[str]) -> tuple[list[str], list[str]]:
    """(CareVault scopes, SMART scopes) a token asking for `requested` holds: the CareVault
    ones asked for and those the SMART ones map onto, in EVERY_SCOPE order; the SMART ones
    as given. Raises SmartScopeError for a SMART scope CareVault does not grant."""
    carevault = {scope for scope in requested if not is_smart_scope(scope)}
    smart = [scope for scope in requested if is_smart_scope(scope)]
    for scope in smart:
        carevault |= carevault_scopes_of(parse_smart_scope(scope))
    ordered = sorted(carevault, key=lambda s: EVERY_SCOPE.index(s) if s in EVERY_SCOPE else 99)
    return ordered, list(dict.fromkeys(smart))


def smart_scopes_held(granted: Iterable[str]) -> list[SmartScope]:
    """The SMART scopes among a token's stored scopes (none for a CareVault-scoped token)."""
    return [parse_smart_scope(scope) for scope in granted if is_smart_scope(scope)]
