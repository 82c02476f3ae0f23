"""What each operation does, declared on the route itself: the one place tokens' access is
decided from.

Every route's endpoint carries an `Operation` (the `declare` decorator, applied under the
router's). A token's request needs every scope in `Operation.token_scopes`; whatever the
HTTP method, an operation whose answer carries a resource's PHI (`discloses`) needs that
resource's `:read` scope, so a change that answers with the record (PATCH, restore, a status
change, a create) needs read as well as write. A route that declares nothing is closed to
tokens, and tests/api/test_permissions.py fails on it. The declaration is read from the
endpoint function (one attribute lookup, no path parsing and no query).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

# Resources whose answers carry PHI, and the audit trail's name for their records.
PHI_RESOURCES: dict[str, str] = {
    "notes": "session",
    "clients": "client",
    "appointments": "appointment",
}
Resource = Literal["notes", "clients", "appointments", "audit", "system", "events"]

_ATTRIBUTE = "__carevault_operation__"

# What a request costs against the rate limits (carevault.auth.rate_limit), in units of a
# one-record read: a write costs more (locks, an audit event, indexes, often a re-read), a
# search, an import, a batch read or an export much more (many rows, often a scan).
READ_COST = 1
WRITE_COST = 2
BULK_COST = 5


@dataclass(frozen=True, slots=True)
class Operation:
    """`token_scopes`: what a token needs (all of them); None: tokens may never do this.
    `discloses`: resources whose PHI the answer carries. `discloses_if_readable`: resources
    whose PHI the answer carries only for a credential that may read them (a session, or a
    token with that resource's `:read` scope): the service leaves it out for any other, so
    the scope is not required. Such PHI is in a field named by the resource's audit name
    (`client`), and the service audits it. `public`: no credential at all. `cost`: what one
    request spends of the caller's (and its practice's) rate limits."""

    token_scopes: tuple[str, ...] | None
    discloses: tuple[str, ...] = ()
    public: bool = False
    discloses_if_readable: tuple[str, ...] = ()
    # Units of the rate limits one request spends (READ_COST, WRITE_COST, BULK_COST).
    cost: int = READ_COST

    @property
    def tokens_allowed(self) -> bool:
        return self.token_scopes is not None


def reads(
    resource: Resource, *, with_readable: tuple[Resource, ...] = (), cost: int = READ_COST
) -> Operation:
    """Answers with the resource's records (or, for audit and system, its data).
    `with_readable`: other resources' PHI the records carry when the caller may read it
    (`Operation.discloses_if_readable`). `cost`: BULK_COST for a search or a batch read."""
    return Operation(
        (f"{resource}:read",), _phi_of(resource), discloses_if_readable=with_readable, cost=cost
    )


def changes(
    resource: Resource,
    *,
    answers_with_record: bool = True,
    with_readable: tuple[Resource, ...] = (),
    cost: int = WRITE_COST,
) -> Operation:
    """Changes the resource. `answers_with_record`: the answer carries the record (its PHI),
    so a token needs the resource's read scope too; False for answers without PHI (204, a
    count). `with_readable` as for `reads`; `cost`: BULK_COST for an import."""
    if answers_with_record:
        return Operation(
            (f"{resource}:write", f"{resource}:read"),
            _phi_of(resource),
            discloses_if_readable=with_readable,
            cost=cost,
        )
    return Operation((f"{resource}:write",), cost=cost)


SESSION_ONLY = Operation(None)
"""Accounts, tokens, passwords, practice settings: a signed-in session only."""

ANY_CREDENTIAL = Operation(())
"""Any signed-in session or any token (who am I; sign out)."""

PUBLIC = Operation((), public=True)
"""No credential: sign-in, health, the web UI's files."""


def _phi_of(resource: Resource) -> tuple[str, ...]:
    return (resource,) if resource in PHI_RESOURCES else ()


Endpoint = TypeVar("Endpoint", bound=Callable[..., object])


def declare(operation: Operation) -> Callable[[Endpoint], Endpoint]:
    """Mark an endpoint with what it does; goes under `@router.<method>(…)`."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, _ATTRIBUTE, operation)
        return endpoint

    return mark


def operation_of(endpoint: Callable[..., object] | None) -> Operation | None:
    """The endpoint's declaration; None when it declares nothing."""
    return cast(Operation | None, getattr(endpoint, _ATTRIBUTE, None))
