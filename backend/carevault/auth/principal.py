"""Who is acting: the user, the credential and the address of a request (or a command).

Plain data beside the auth models, so services take a `Principal` without importing the web
layer; carevault/auth/dependencies.py builds one from a request."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from carevault.audit.service import Actor
from carevault.auth.models import LoginSession, Role, User


@dataclass(frozen=True)
class Principal:
    user: User
    ip_address: str | None
    token_id: uuid.UUID | None = None
    login_session: LoginSession | None = None

    @property
    def workspace_id(self) -> uuid.UUID:
        return self.user.workspace_id

    @property
    def is_owner(self) -> bool:
        return self.user.role == Role.OWNER.value

    @property
    def actor(self) -> Actor:
        return Actor(self.workspace_id, self.user.id, self.token_id, self.ip_address)
