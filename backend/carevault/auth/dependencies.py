"""Who is calling: a login session (cookie + CSRF header) or an API token (Bearer)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.dependencies import app_state, get_db
from carevault.api.errors import ApiError
from carevault.api.proxies import client_ip
from carevault.api.state import AppState
from carevault.auth import service
from carevault.auth.permissions import READ_COST, Operation, operation_of
from carevault.auth.principal import Principal
from carevault.crypto.errors import KeyAccessRevoked, KeyServiceUnavailable
from carevault.workspaces.keys import WorkspaceShredded, load_workspace_keys

SESSION_COOKIE = "carevault_session"
CSRF_HEADER = "X-CSRF-Token"
DEVICE_COOKIE = "carevault_device"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# All a session signed in with a temporary password can do: change it (or leave).
PATHS_DURING_PASSWORD_CHANGE = frozenset(
    {"/api/v1/auth/me", "/api/v1/auth/password", "/api/v1/auth/logout"}
)


async def current_principal(request: Request) -> Principal:
    """The caller, from a Bearer token or the session cookie (with its CSRF header for a
    change). The OpenAPI document names both schemes for every operation that depends on
    this (carevault.api.app), so no security-scheme dependency runs on each request; the
    request's session is asked for directly (the same one the route's `DbSession` gets),
    since FastAPI resolves a sub-dependency anew on every request even when it is cached."""
    state = app_state(request)
    db = await get_db(request)
    ip = client_ip(request)
    authorization = request.headers.get("Authorization", "")
    try:
        if authorization:
            scheme, _, credentials = authorization.partition(" ")
            if scheme.lower() != "bearer" or not credentials.strip():
                raise service.AuthFailure("invalid_token", "use Authorization: Bearer <token>")
            by_token = await service.resolve_api_token(db, credentials.strip(), ip)
            principal = Principal(
                by_token.user,
                ip,
                token_id=by_token.token_id,
                token_scopes=frozenset(by_token.scopes),
                chart_access=by_token.policy.chart_access,
                break_the_glass=by_token.policy.break_the_glass,
                service_account=by_token.service_account,
            )
            request.state.actor = principal.actor
            operation = _operation(request)
            await _count_request(
                request,
                state,
                "token",
                by_token.token_id,
                cost=operation.cost if operation else READ_COST,
                practice=by_token.user.workspace_id,
            )
            _check_token_scope(request, by_token.scopes)
            await _load_practice_keys(db, state, principal, by_token.workspace_shredded, request)
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
    principal = Principal(
        by_session.user,
        ip,
        login_session=by_session.login_session,
        chart_access=by_session.policy.chart_access,
        break_the_glass=by_session.policy.break_the_glass,
    )
    request.state.actor = principal.actor
    operation = _operation(request)
    await _count_request(
        request,
        state,
        "session",
        by_session.login_session.id,
        cost=operation.cost if operation else READ_COST,
    )
    if (
        by_session.user.must_change_password
        and request.url.path not in PATHS_DURING_PASSWORD_CHANGE
    ):
        raise ApiError(
            403,
            "password_change_required",
            "this account has a temporary password: choose a new one first",
        )
    await _load_practice_keys(db, state, principal, by_session.workspace_shredded, request)
    return principal


def _operation(request: Request) -> Operation | None:
    # The route's own declaration (carevault.auth.permissions): an attribute of its endpoint.
    route = request.scope.get("route")
    return operation_of(getattr(route, "endpoint", None))


async def _count_request(
    request: Request,
    state: AppState,
    kind: str,
    credential: uuid.UUID,
    *,
    cost: int,
    practice: uuid.UUID | None = None,
) -> None:
    """Spend the operation's cost from the credential's budget (and a token's practice's:
    carevault.auth.rate_limit); the response carries the quota (RateLimitHeaders), and a
    request over either is refused before any work."""
    limiter = state.rate_limiter
    assert limiter is not None
    quota = await limiter.take(kind, credential, cost=cost, practice=practice)
    request.state.rate_limit = quota
    if quota.exceeded:
        whose = "this practice's API tokens" if quota.scope == "practice" else "this credential"
        raise ApiError(
            429,
            "rate_limited",
            f"over {quota.limit} rate-limit units a minute for {whose} (this request costs "
            f"{cost}); slow down",
            details={"limit_scope": quota.scope, "cost": cost},
            headers={"Retry-After": str(quota.reset_seconds), **quota.headers()},
        )


# Routes that touch no PHI and must answer while KMS refuses or cannot open the practice's
# keys: an owner looks at (and fixes) the practice's key there.
KEY_STATUS_PATHS = frozenset({"/api/v1/workspace/encryption-key", "/api/v1/system/readiness"})


async def _load_practice_keys(
    db: AsyncSession,
    state: AppState,
    principal: Principal,
    shredded: bool,
    request: Request | None = None,
) -> None:
    """Every authenticated request may touch its practice's PHI: have its data keys ready
    (a SELECT once per refresh interval, nothing otherwise). `shredded`, read by the
    credential lookup, refuses a shredded practice's request before any cached key is used,
    and drops what this process holds of it (its data keys, its client list's names)."""
    try:
        await load_workspace_keys(db, principal.workspace_id, shredded=shredded)
    except (KeyAccessRevoked, KeyServiceUnavailable):
        if request is None or request.url.path not in KEY_STATUS_PATHS:
            raise
    except WorkspaceShredded:
        if state.client_list_cache is not None:
            state.client_list_cache.drop(principal.workspace_id)
        raise ApiError(410, "workspace_shredded", "this practice's data was shredded") from None


def _check_token_scope(request: Request, granted: list[str]) -> None:
    operation = _operation(request)
    if operation is None or operation.token_scopes is None:
        raise ApiError(
            403,
            "login_session_required",
            "API tokens cannot do this; use a signed-in session",
        )
    missing = [scope for scope in operation.token_scopes if scope not in granted]
    if missing:
        raise ApiError(
            403,
            "insufficient_scope",
            f"this API token lacks the {' and '.join(missing)} scope",
            details={"required_scope": missing[0], "required_scopes": missing},
        )


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]


async def current_owner(principal: CurrentPrincipal) -> Principal:
    if not principal.is_owner:
        raise ApiError(403, "owner_required", "only workspace owners can do this")
    return principal


CurrentOwner = Annotated[Principal, Depends(current_owner)]


def _require_recent_password(principal: Principal) -> Principal:
    if principal.login_session is None:
        raise ApiError(403, "login_session_required", "use a signed-in session for this")
    if not service.recently_reauthenticated(principal.login_session):
        minutes = int(service.REAUTH_WINDOW.total_seconds() // 60)
        raise ApiError(
            403,
            "reauthentication_required",
            f"enter your password again (POST /auth/reauth); sensitive changes need it "
            f"within the last {minutes} minutes",
        )
    return principal


async def recent_password(principal: CurrentPrincipal) -> Principal:
    """Sensitive actions: a signed-in session whose password was proved in the last minutes."""
    return _require_recent_password(principal)


RecentPassword = Annotated[Principal, Depends(recent_password)]


async def recent_owner(owner: CurrentOwner) -> Principal:
    return _require_recent_password(owner)


RecentOwner = Annotated[Principal, Depends(recent_owner)]
