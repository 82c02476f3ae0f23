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
from carevault.core.errors import Forbidden


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


@dataclass(frozen=True, slots=True)
class ServiceAccountRef:
    """The service account a token belongs to (carevault.service_accounts.service)."""

    id: uuid.UUID
    name: str

    def as_account(self, workspace_id: uuid.UUID) -> Account:
        """What the services see as the caller: the practice acting through an integration,
        with an owner's reach (its scopes are what limit it). Its id is the service
        account's, which no users row has: code that stores a person asks `person_id`."""
        return Account(
            id=self.id,
            workspace_id=workspace_id,
            email="",
            display_name=self.name,
            role=Role.OWNER.value,
            disabled_at=None,
            must_change_password=False,
            requires_cosign=False,
            supervisor_id=None,
        )


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
    # Set when the token is a service account's: the practice acts, no person.
    service_account: ServiceAccountRef | None = None

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
    def person_id(self) -> uuid.UUID:
        """The calling person's user id, for what records a person (a note's author, a
        care-team place). A service account is none: 403 `person_required`."""
        if self.service_account is not None:
            raise Forbidden(
                "person_required",
                "a service account acts for the practice, not as a person: this needs a "
                "user's session or personal token",
            )
        return self.user.id

    @property
    def actor(self) -> Actor:
        # A service account's events carry its token's id and no user id (the token names
        # the account; audit_events.actor_user_id references users).
        user_id = None if self.service_account is not None else self.user.id
        return Actor(self.workspace_id, user_id, self.token_id, self.ip_address)
