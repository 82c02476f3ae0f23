"""Who is calling: a login session (cookie + CSRF header) or an API token (Bearer)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request

from carevault.api.dependencies import DbSession, State
from carevault.api.errors import ApiError
from carevault.audit.service import Actor
from carevault.auth import service
from carevault.auth.models import LoginSession, Role, User

SESSION_COOKIE = "carevault_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


async def current_principal(request: Request, db: DbSession, state: State) -> Principal:
    ip = client_ip(request)
    authorization = request.headers.get("Authorization", "")
    try:
        if authorization:
            scheme, _, credentials = authorization.partition(" ")
            if scheme.lower() != "bearer" or not credentials.strip():
                raise service.AuthFailure("invalid_token", "use Authorization: Bearer <token>")
            by_token = await service.resolve_api_token(db, credentials.strip(), ip)
            principal = Principal(by_token.user, ip, token_id=by_token.token.id)
            request.state.actor = principal.actor
            return principal
        secret = request.cookies.get(SESSION_COOKIE)
        if not secret:
            raise service.AuthFailure("not_authenticated", "sign in or send an API token")
        idle = timedelta(minutes=state.settings.session_idle_minutes)
        by_session = await service.resolve_login_session(db, secret, idle)
    except service.AuthFailure as failure:
        raise ApiError(
            401, failure.code, failure.message, keep_changes=failure.ended_session
        ) from None
    if request.method not in SAFE_METHODS and not service.csrf_matches(
        by_session.login_session, request.headers.get(CSRF_HEADER)
    ):
        raise ApiError(403, "csrf_failed", f"cookie-authenticated changes need {CSRF_HEADER}")
    principal = Principal(by_session.user, ip, login_session=by_session.login_session)
    request.state.actor = principal.actor
    return principal


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]


async def current_owner(principal: CurrentPrincipal) -> Principal:
    if not principal.is_owner:
        raise ApiError(403, "owner_required", "only workspace owners can do this")
    return principal


CurrentOwner = Annotated[Principal, Depends(current_owner)]
