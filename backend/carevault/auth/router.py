from __future__ import annotations

import uuid

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse

from carevault.api.dependencies import DbSession, State
from carevault.api.errors import (
    AUTHENTICATED,
    ApiError,
    error_body,
    error_responses,
    not_found,
)
from carevault.audit import service as audit
from carevault.auth import service, tokens
from carevault.auth.dependencies import (
    SESSION_COOKIE,
    CurrentOwner,
    CurrentPrincipal,
    client_ip,
)
from carevault.auth.models import Role
from carevault.auth.schemas import (
    LoginRequest,
    LoginResponse,
    MeResponse,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserCreate,
    UserRead,
    WorkspaceRead,
)
from carevault.workspaces.models import Workspace

router = APIRouter(prefix="/auth", tags=["auth"])
users_router = APIRouter(prefix="/users", tags=["users"])

_ERRORS = error_responses(*AUTHENTICATED)


@router.post(
    "/login",
    response_model=LoginResponse,
    responses=error_responses(401, 422, 429),
)
async def login(body: LoginRequest, request: Request, db: DbSession, state: State) -> Response:
    """Sign in. Sets an httpOnly session cookie; returns the CSRF token for later changes."""
    result = await service.login(db, body.email, body.password, client_ip(request))
    # Failures are answered, not raised, so the failure count and audit event are committed.
    if isinstance(result, service.LoginRateLimited):
        return JSONResponse(
            error_body("rate_limited", "too many failed sign-ins; try again later"),
            status_code=429,
            headers={"Retry-After": str(result.retry_after_seconds)},
        )
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
    return response


@router.post(
    "/logout",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(400, *AUTHENTICATED),
)
async def logout(principal: CurrentPrincipal, db: DbSession) -> Response:
    if principal.login_session is None:
        raise ApiError(400, "not_a_login_session", "API tokens are revoked, not logged out")
    await service.end_login_session(db, principal.login_session, principal.ip_address)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/me", response_model=MeResponse, responses=_ERRORS)
async def me(
    principal: CurrentPrincipal, db: DbSession, state: State, request: Request
) -> MeResponse:
    """Who is signed in; for cookie sessions also the CSRF token (a reloaded tab needs it)."""
    workspace = await db.get_one(Workspace, principal.workspace_id)
    session = principal.login_session
    secret = request.cookies.get(SESSION_COOKIE) if session else None
    return MeResponse(
        user=UserRead.model_validate(principal.user),
        workspace=WorkspaceRead.model_validate(workspace),
        auth_method="session" if session else "token",
        idle_timeout_seconds=state.settings.session_idle_minutes * 60 if session else None,
        session_expires_at=session.expires_at if session else None,
        csrf_token=tokens.csrf_token_for(secret) if secret else None,
    )


@router.post("/tokens", response_model=TokenCreated, status_code=201, responses=_ERRORS)
async def create_token(
    body: TokenCreate, principal: CurrentPrincipal, db: DbSession
) -> TokenCreated:
    """Create an API token for the signed-in user. The token is in this response only."""
    if principal.login_session is None:
        raise ApiError(403, "login_session_required", "create tokens from a signed-in session")
    token, secret = await service.create_api_token(
        db, principal.user, body.name, principal.ip_address
    )
    return TokenCreated(**TokenRead.model_validate(token).model_dump(), token=secret)


@router.get("/tokens", response_model=list[TokenRead], responses=_ERRORS)
async def list_tokens(principal: CurrentPrincipal, db: DbSession) -> list[TokenRead]:
    """Your tokens; owners see every token of the workspace."""
    tokens = await service.list_api_tokens(db, principal.user)
    return [TokenRead.model_validate(t) for t in tokens]


@router.delete(
    "/tokens/{token_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404)
)
async def revoke_token(token_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession) -> Response:
    if not await service.revoke_api_token(db, principal.user, token_id, principal.actor):
        raise not_found("token")
    return Response(status_code=204)


@users_router.get("", response_model=list[UserRead], responses=_ERRORS)
async def list_users(owner: CurrentOwner, db: DbSession) -> list[UserRead]:
    return [UserRead.model_validate(u) for u in await service.list_users(db, owner.workspace_id)]


@users_router.post(
    "", response_model=UserRead, status_code=201, responses=error_responses(*AUTHENTICATED, 409)
)
async def create_user(body: UserCreate, owner: CurrentOwner, db: DbSession) -> UserRead:
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
    except service.UserError as exc:
        code = 409 if "already exists" in str(exc) else 422
        kind = "user_exists" if code == 409 else "validation_error"
        raise ApiError(code, kind, str(exc)) from None
    await audit.record(db, owner.actor, "user.create", resource_type="user", resource_ids=[user.id])
    return UserRead.model_validate(user)
