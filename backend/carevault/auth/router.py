from __future__ import annotations

import uuid

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse

from carevault.api.dependencies import DbSession, State
from carevault.api.error_examples import SIGN_IN_RATE_LIMITED
from carevault.api.errors import (
    AUTHENTICATED,
    ApiError,
    error_body,
    error_responses,
)
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.proxies import client_ip
from carevault.api.strict_params import ApiRoute
from carevault.audit import service as audit
from carevault.auth import service, tokens
from carevault.auth.dependencies import (
    DEVICE_COOKIE,
    SESSION_COOKIE,
    CurrentOwner,
    CurrentPrincipal,
    RecentOwner,
    RecentPassword,
)
from carevault.auth.drafts import draft_key_for
from carevault.auth.models import LoginSession, Role, User
from carevault.auth.permissions import ANY_CREDENTIAL, PUBLIC, SESSION_ONLY, declare
from carevault.auth.principal import Principal
from carevault.auth.schemas import (
    CLINICIAN_EXAMPLE,
    ClinicianRead,
    LoginRequest,
    LoginResponse,
    MeResponse,
    PasswordChange,
    PasswordChanged,
    ReauthRequest,
    ReauthResponse,
    ServiceAccountRef,
    TemporaryPassword,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserCreate,
    UserRead,
    UserUpdate,
    WorkspaceRead,
)
from carevault.core.errors import not_found
from carevault.core.fields import invalid
from carevault.workspaces.models import Workspace

router = APIRouter(prefix="/auth", tags=["auth"], route_class=ApiRoute)
users_router = APIRouter(prefix="/users", tags=["users"], route_class=ApiRoute)
clinicians_router = APIRouter(prefix="/clinicians", tags=["users"], route_class=ApiRoute)

_ERRORS = error_responses(*AUTHENTICATED)


@router.post(
    "/login",
    response_model=LoginResponse,
    responses=error_responses(401, 422, 429, codes=("invalid_credentials", SIGN_IN_RATE_LIMITED)),
)
@declare(PUBLIC)
async def login(body: LoginRequest, request: Request, db: DbSession, state: State) -> Response:
    """Sign in. Sets an httpOnly session cookie; returns the CSRF token for later changes."""
    result = await service.login(
        db,
        body.email,
        body.password,
        client_ip(request),
        request.cookies.get(DEVICE_COOKIE),
    )
    # Failures are answered, not raised, so the failure count and audit event are committed.
    if isinstance(result, service.LoginRateLimited):
        return _rate_limited(result)
    if isinstance(result, service.LoginFailed):
        return JSONResponse(
            error_body("invalid_credentials", "wrong email or password"), status_code=401
        )
    idle_seconds = state.settings.session_idle_minutes * 60
    payload = LoginResponse(
        user=UserRead.model_validate(result.user),
        workspace=WorkspaceRead.model_validate(result.workspace),
        csrf_token=result.csrf_token,
        idle_timeout_seconds=idle_seconds,
        session_expires_at=result.login_session.expires_at,
        draft_key=await draft_key_for(db, result.user.workspace_id, result.user.id),
    )
    response = JSONResponse(payload.model_dump(mode="json"))
    response.set_cookie(
        SESSION_COOKIE,
        result.session_secret,
        httponly=True,
        secure=state.settings.is_production,
        samesite="strict",
        path="/",
    )
    if result.device_secret:
        # Marks this browser as one the user signed in from: its sign-ins are throttled apart
        # from strangers' guesses. Sent to the sign-in endpoint only.
        response.set_cookie(
            DEVICE_COOKIE,
            result.device_secret,
            max_age=int(service.TRUSTED_DEVICE_LIFETIME.total_seconds()),
            httponly=True,
            secure=state.settings.is_production,
            samesite="strict",
            path="/api/v1/auth/login",
        )
    return response


def _rate_limited(result: service.LoginRateLimited) -> JSONResponse:
    return JSONResponse(
        error_body("rate_limited", "too many failed password checks; try again later"),
        status_code=429,
        headers={"Retry-After": str(result.retry_after_seconds)},
    )


@router.post(
    "/logout",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(400, *AUTHENTICATED, codes=("not_a_login_session",)),
)
@declare(ANY_CREDENTIAL)
async def logout(principal: CurrentPrincipal, db: DbSession) -> Response:
    if principal.login_session is None:
        raise ApiError(400, "not_a_login_session", "API tokens are revoked, not logged out")
    await service.end_login_session(db, principal.login_session, principal.ip_address)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/me", response_model=MeResponse, responses=_ERRORS)
@declare(ANY_CREDENTIAL)
async def me(
    principal: CurrentPrincipal, db: DbSession, state: State, request: Request
) -> MeResponse:
    """Who is signed in; for cookie sessions also the CSRF token (a reloaded tab needs it)."""
    workspace = await db.get_one(Workspace, principal.workspace_id)
    login_session = principal.login_session
    secret = request.cookies.get(SESSION_COOKIE) if login_session else None
    return MeResponse(
        user=UserRead.model_validate(principal.user),
        workspace=WorkspaceRead.model_validate(workspace),
        auth_method="session" if login_session else "token",
        service_account=(
            ServiceAccountRef.model_validate(principal.service_account)
            if principal.service_account
            else None
        ),
        idle_timeout_seconds=state.settings.session_idle_minutes * 60 if login_session else None,
        session_expires_at=login_session.expires_at if login_session else None,
        csrf_token=tokens.csrf_token_for(secret) if secret else None,
        draft_key=(
            await draft_key_for(db, principal.workspace_id, principal.user.id)
            if login_session
            else None
        ),
    )


@router.post("/tokens", response_model=TokenCreated, status_code=201, responses=_ERRORS)
@declare(SESSION_ONLY)
async def create_token(
    body: TokenCreate, principal: RecentPassword, db: DbSession, idempotency: Idempotency
) -> TokenCreated:
    """Create an API token for the signed-in user, limited to `scopes`. The token is in this
    response only. Needs a session whose password was proved in the last 5 minutes."""
    try:
        token, secret = await service.create_api_token(
            db,
            principal.user,
            body.name,
            principal.ip_address,
            scopes=body.all_scopes,
            expires_in_days=body.expires_in_days,
        )
    except service.UserError as exc:
        raise ApiError(422, "validation_error", str(exc)) from None
    created = TokenCreated(**TokenRead.model_validate(token).model_dump(), token=secret)
    return await idempotency.remember(201, created)


@router.get("/tokens", response_model=Page[TokenRead], responses=_ERRORS)
@declare(SESSION_ONLY)
async def list_tokens(
    principal: CurrentPrincipal, db: DbSession, paging: PageParams
) -> Page[TokenRead]:
    """Your tokens, newest first; owners see every person's token of the workspace (a
    service account's are under GET /service-accounts/{id}/tokens)."""
    tokens, total = await service.list_api_tokens(db, principal.user, paging)
    return Page.of([TokenRead.model_validate(t) for t in tokens], total, paging)


@router.delete(
    "/tokens/{token_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404)
)
@declare(SESSION_ONLY)
async def revoke_token(token_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession) -> Response:
    if not await service.revoke_api_token(db, principal.user, token_id, principal.actor):
        raise not_found("token")
    return Response(status_code=204)


@users_router.get("", response_model=Page[UserRead], responses=_ERRORS)
@declare(SESSION_ONLY)
async def list_users(owner: CurrentOwner, db: DbSession, paging: PageParams) -> Page[UserRead]:
    """Owners: the users of your workspace, by email."""
    users, total = await service.list_users(db, owner.workspace_id, paging)
    return Page.of([UserRead.model_validate(u) for u in users], total, paging)


@clinicians_router.get(
    "",
    response_model=list[ClinicianRead],
    responses={**_ERRORS, 200: {"content": {"application/json": {"example": [CLINICIAN_EXAMPLE]}}}},
)
@declare(SESSION_ONLY)
async def list_clinicians(principal: CurrentPrincipal, db: DbSession) -> list[ClinicianRead]:
    """The practice's calendars (every user, disabled ones marked inactive), by name: what
    the calendar's clinician filter and the booking dialog choose from. Signed-in users."""
    users = await service.list_clinicians(db, principal.workspace_id)
    return [
        ClinicianRead(id=u.id, display_name=u.display_name or u.email, active=u.disabled_at is None)
        for u in users
    ]


@users_router.post(
    "",
    response_model=UserRead,
    status_code=201,
    responses=error_responses(*AUTHENTICATED, codes=("user_exists",)),
)
@declare(SESSION_ONLY)
async def create_user(body: UserCreate, owner: RecentOwner, db: DbSession) -> UserRead:
    """Owners: add a user to your workspace. 409 only when your own workspace already has
    the address; an address used by another practice is added like any other, so the
    answer never tells whether someone is registered elsewhere."""
    workspace = await db.get_one(Workspace, owner.workspace_id)
    try:
        user = await service.create_user(
            db,
            workspace,
            email=body.email,
            password=body.password,
            role=Role(body.role),
            display_name=body.display_name,
        )
    except service.UserExists as exc:
        raise ApiError(409, "user_exists", str(exc)) from None
    except service.UserError as exc:
        raise ApiError(422, "validation_error", str(exc)) from None
    await audit.record(db, owner.actor, "user.create", resource_type="user", resource_ids=[user.id])
    return UserRead.model_validate(user)


# --- your password ------------------------------------------------------------------------


@router.post(
    "/reauth",
    response_model=ReauthResponse,
    responses=error_responses(*AUTHENTICATED, codes=("invalid_credentials", SIGN_IN_RATE_LIMITED)),
)
@declare(SESSION_ONLY)
async def reauthenticate(
    body: ReauthRequest, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Prove the password again; sensitive changes are then allowed for 5 minutes."""
    login_session = _login_session(principal)
    checked = await service.check_session_password(db, principal.user, login_session, body.password)
    if isinstance(checked, service.LoginRateLimited):
        return _rate_limited(checked)
    if not checked:
        await audit.record(
            db,
            principal.actor,
            "auth.reauthenticate_failed",
            resource_type="login_session",
            resource_ids=[login_session.id],
        )
        return JSONResponse(error_body("invalid_credentials", "wrong password"), status_code=401)
    at = await service.reauthenticate(db, login_session, principal.actor)
    payload = ReauthResponse(reauthenticated_until=at + service.REAUTH_WINDOW)
    return JSONResponse(payload.model_dump(mode="json"))


@router.post(
    "/password",
    response_model=PasswordChanged,
    responses=error_responses(*AUTHENTICATED, codes=("invalid_credentials", SIGN_IN_RATE_LIMITED)),
)
@declare(SESSION_ONLY)
async def change_password(
    body: PasswordChange, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Change your own password; every other session of yours ends (this one stays)."""
    login_session = _login_session(principal)
    checked = await service.check_session_password(
        db, principal.user, login_session, body.current_password
    )
    if isinstance(checked, service.LoginRateLimited):
        return _rate_limited(checked)
    if not checked:
        await audit.record(
            db,
            principal.actor,
            "auth.password_change_failed",
            resource_type="user",
            resource_ids=[principal.user.id],
        )
        return JSONResponse(
            error_body("invalid_credentials", "the current password is wrong"), status_code=401
        )
    try:
        ended = await service.change_password(
            db, principal.user, login_session, body.new_password, principal.actor
        )
    except service.UserError as exc:
        raise ApiError(422, "validation_error", str(exc)) from None
    return JSONResponse(PasswordChanged(other_sessions_ended=ended).model_dump(mode="json"))


def _login_session(principal: Principal) -> LoginSession:
    if principal.login_session is None:
        raise ApiError(403, "login_session_required", "use a signed-in session for this")
    return principal.login_session


# --- owners manage accounts -----------------------------------------------------------------

_ACCOUNT_ERRORS = error_responses(*AUTHENTICATED, 404, codes=("account_conflict",))


async def _member(db: DbSession, owner: Principal, user_id: uuid.UUID) -> User:
    user = await service.get_user(db, owner.workspace_id, user_id)
    if user is None:
        raise not_found("user")
    return user


@users_router.patch(
    "/{user_id}", response_model=UserRead, responses=error_responses(*AUTHENTICATED, 404)
)
@declare(SESSION_ONLY)
async def update_user(
    user_id: uuid.UUID, body: UserUpdate, owner: CurrentOwner, db: DbSession
) -> UserRead:
    """Owners: require co-signature of a user's notes (a trainee) and name their supervisor,
    who may co-sign them (owners always may). Send the fields that change."""
    changes = body.model_dump(exclude_unset=True)
    if not changes:
        raise ApiError(422, "no_changes", "send requires_cosign, supervisor_id or both")
    if "requires_cosign" in changes and changes["requires_cosign"] is None:
        raise invalid("validation_error", "requires_cosign cannot be null", "requires_cosign")
    target = await _member(db, owner, user_id)
    try:
        await service.update_user(db, target, changes, owner.actor)
    except service.UserError as exc:
        raise invalid("validation_error", str(exc), "supervisor_id") from None
    return UserRead.model_validate(target)


@users_router.post("/{user_id}/disable", response_model=UserRead, responses=_ACCOUNT_ERRORS)
@declare(SESSION_ONLY)
async def disable_user(user_id: uuid.UUID, owner: RecentOwner, db: DbSession) -> UserRead:
    """Disable an account: its sessions end and its API tokens are revoked at once."""
    try:
        target = await service.disable_user(db, owner.workspace_id, user_id, owner.actor)
    except service.AccountConflict as exc:
        raise ApiError(409, "account_conflict", str(exc)) from None
    if target is None:
        raise not_found("user")
    return UserRead.model_validate(target)


@users_router.post(
    "/{user_id}/enable", response_model=UserRead, responses=error_responses(*AUTHENTICATED, 404)
)
@declare(SESSION_ONLY)
async def enable_user(user_id: uuid.UUID, owner: RecentOwner, db: DbSession) -> UserRead:
    """Enable a disabled account. Its old sessions and tokens stay ended."""
    target = await _member(db, owner, user_id)
    await service.enable_user(db, target, owner.actor)
    return UserRead.model_validate(target)


@users_router.post(
    "/{user_id}/temporary-password", response_model=UserRead, responses=_ACCOUNT_ERRORS
)
@declare(SESSION_ONLY)
async def set_temporary_password(
    user_id: uuid.UUID, body: TemporaryPassword, owner: RecentOwner, db: DbSession
) -> UserRead:
    """Reset a user's password to one the owner hands over; it must be changed at the next
    sign-in, and the user's sessions end now."""
    target = await _member(db, owner, user_id)
    try:
        await service.set_temporary_password(db, target, body.temporary_password, owner.actor)
    except service.AccountConflict as exc:
        raise ApiError(409, "account_conflict", str(exc)) from None
    except service.UserError as exc:
        raise ApiError(422, "validation_error", str(exc)) from None
    return UserRead.model_validate(target)
