"""Who is acting: the user, the credential and the address of a request (or a command).

Plain data beside the auth models, so services take a `Principal` without importing the web
layer; carevault/auth/dependencies.py builds one from a request."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from carevault.audit.service import Actor
from carevault.auth.models import LoginSession, Role, User


@dataclass(frozen=True, slots=True)
class Account:
    """The calling user's own columns, as the credential's lookup read them in its round
    trip: plain values, so that a request that only needs to know who calls builds no ORM
    instance. A route that changes the user (its password) loads the `User` itself."""

    id: uuid.UUID
    workspace_id: uuid.UUID
    email: str
    display_name: str
    role: str
    disabled_at: datetime | None
    must_change_password: bool
    requires_cosign: bool
    supervisor_id: uuid.UUID | None

    @classmethod
    def of(cls, user: User) -> Account:
        return cls(**{name: getattr(user, name) for name in ACCOUNT_COLUMNS})

    @classmethod
    def from_row(cls, row: Any, prefix: str) -> Account:
        """From a row whose columns are the account's, labelled `prefix` + name."""
        return cls(**{name: getattr(row, prefix + name) for name in ACCOUNT_COLUMNS})


ACCOUNT_COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(Account))


@dataclass(frozen=True)
class Principal:
    """`chart_access` and `break_the_glass`: the practice's settings, read by the credential
    lookup in its round trip (carevault.clients.access decides from them)."""

    user: Account
    ip_address: str | None
    token_id: uuid.UUID | None = None
    login_session: LoginSession | None = None
    # A token's scopes; None for a signed-in session (whatever the role allows).
    token_scopes: frozenset[str] | None = None
    chart_access: str = "practice"
    break_the_glass: bool = False

    @property
    def workspace_id(self) -> uuid.UUID:
        return self.user.workspace_id

    @property
    def is_owner(self) -> bool:
        return self.user.role == Role.OWNER.value

    def may_read(self, resource: str) -> bool:
        """Whether the credential may receive `resource`'s PHI (a session always may; a
        token with the resource's `:read` scope)."""
        return self.token_scopes is None or f"{resource}:read" in self.token_scopes

    @property
    def sees_every_chart(self) -> bool:
        """Owners always; clinicians unless the practice limits them to their care teams."""
        return self.is_owner or self.chart_access == "practice"

    @property
    def actor(self) -> Actor:
        return Actor(self.workspace_id, self.user.id, self.token_id, self.ip_address)
