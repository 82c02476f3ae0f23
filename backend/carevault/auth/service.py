"""Users, sign-in, login sessions and API tokens."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.auth import tokens
from carevault.auth.models import ApiToken, LoginFailure, LoginSession, Role, User
from carevault.auth.passwords import (
    MIN_PASSWORD_LENGTH,
    hash_password,
    needs_rehash,
    verify_password,
)
from carevault.db.hooks import before_commit
from carevault.db.scoping import in_workspace
from carevault.workspaces.models import Workspace

FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_EMAIL = 5
MAX_FAILURES_PER_ADDRESS = 20
SESSION_LIFETIME = timedelta(hours=12)
LAST_SEEN_GRANULARITY = timedelta(seconds=30)
TOKEN_USE_GRANULARITY = timedelta(minutes=1)

# Verifying against this when the email is unknown keeps both failures equally slow.
_DUMMY_HASH = hash_password("not a real password, only for timing")


class UserError(ValueError):
    """A user cannot be created as asked; the message says why."""


def _now() -> datetime:
    return datetime.now(UTC)


async def get_by_email(db: AsyncSession, email: str) -> User | None:
    statement = select(User).where(func.lower(User.email) == email.strip().lower())
    return (await db.execute(statement)).scalar_one_or_none()


async def create_user(
    db: AsyncSession,
    workspace: Workspace,
    *,
    email: str,
    password: str,
    role: Role,
    display_name: str = "",
) -> User:
    email = email.strip()
    if "@" not in email or len(email) > 320:
        raise UserError(f"{email!r} is not an email address")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise UserError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    if await get_by_email(db, email) is not None:
        raise UserError(f"a user with email {email} already exists")
    user = User(
        workspace_id=workspace.id,
        email=email,
        display_name=display_name or email.split("@")[0],
        password_hash=hash_password(password),
        role=role.value,
    )
    db.add(user)
    await db.flush()
    return user


async def list_users(db: AsyncSession, workspace_id: uuid.UUID) -> list[User]:
    statement = in_workspace(User, workspace_id).order_by(User.email)
    return list((await db.execute(statement)).scalars())


# --- sign-in ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoginSucceeded:
    user: User
    workspace: Workspace
    session_secret: str
    csrf_token: str
    login_session: LoginSession


@dataclass(frozen=True)
class LoginFailed:
    pass


@dataclass(frozen=True)
class LoginRateLimited:
    retry_after_seconds: int


LoginResult = LoginSucceeded | LoginFailed | LoginRateLimited


def _email_key(email: str) -> bytes:
    return tokens.digest("login:" + email.strip().lower())


async def _retry_after(db: AsyncSession, email_key: bytes, ip: str | None) -> int | None:
    since = _now() - FAILURE_WINDOW
    checks = [(LoginFailure.email_key == email_key, MAX_FAILURES_PER_EMAIL)]
    if ip:
        checks.append((LoginFailure.ip_address == ip, MAX_FAILURES_PER_ADDRESS))
    for condition, limit in checks:
        count, oldest = (
            await db.execute(
                select(func.count(), func.min(LoginFailure.at)).where(
                    condition, LoginFailure.at > since
                )
            )
        ).one()
        if count >= limit:
            return max(1, int((oldest + FAILURE_WINDOW - _now()).total_seconds()) + 1)
    return None


async def login(db: AsyncSession, email: str, password: str, ip: str | None) -> LoginResult:
    """Check the credentials; the same LoginFailed for an unknown email and a wrong password."""
    email_key = _email_key(email)
    retry_after = await _retry_after(db, email_key, ip)
    user = await get_by_email(db, email)
    if retry_after is not None:
        actor = audit.Actor(workspace_id=user.workspace_id if user else None, ip_address=ip)
        await audit.record(
            db,
            actor,
            "auth.login_rate_limited",
            resource_type="user",
            resource_ids=[user.id] if user else None,
        )
        return LoginRateLimited(retry_after)
    # argon2id takes ~150 ms of CPU and 64 MiB: off the event loop, so the worker keeps serving.
    valid = await asyncio.to_thread(
        verify_password, user.password_hash if user else _DUMMY_HASH, password
    )
    if user is None or not valid or user.disabled_at is not None:
        db.add(LoginFailure(email_key=email_key, ip_address=ip, at=_now()))
        actor = audit.Actor(workspace_id=user.workspace_id if user else None, ip_address=ip)
        await audit.record(
            db,
            actor,
            "auth.login_failed",
            resource_type="user",
            resource_ids=[user.id] if user else None,
        )
        return LoginFailed()
    if needs_rehash(user.password_hash):
        user.password_hash = await asyncio.to_thread(hash_password, password)
    workspace = await db.get_one(Workspace, user.workspace_id)
    secret = tokens.new_secret()
    csrf = tokens.csrf_token_for(secret)
    now = _now()
    session = LoginSession(
        workspace_id=user.workspace_id,
        user_id=user.id,
        secret_hash=tokens.digest(secret),
        csrf_hash=tokens.digest(csrf),
        created_at=now,
        last_seen_at=now,
        expires_at=now + SESSION_LIFETIME,
    )
    db.add(session)
    await db.flush()
    actor = audit.Actor(workspace_id=user.workspace_id, user_id=user.id, ip_address=ip)
    await audit.record(
        db, actor, "auth.login", resource_type="login_session", resource_ids=[session.id]
    )
    return LoginSucceeded(user, workspace, secret, csrf, session)


# --- resolving credentials -------------------------------------------------------------------


class AuthFailure(Exception):
    """Credentials that do not authenticate; `code` tells the client why. `ended_session`:
    the failure ended a login session, a change that must be kept."""

    def __init__(self, code: str, message: str, *, ended_session: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ended_session = ended_session


@dataclass(frozen=True)
class SessionAuth:
    user: User
    login_session: LoginSession


async def resolve_login_session(
    db: AsyncSession, secret: str, idle_timeout: timedelta
) -> SessionAuth:
    found = (
        await db.execute(
            select(LoginSession, User)
            .join(User, User.id == LoginSession.user_id)
            .where(LoginSession.secret_hash == tokens.digest(secret))
        )
    ).one_or_none()
    if found is None:
        raise AuthFailure("not_authenticated", "sign in first")
    login_session, user = found
    now = _now()
    if login_session.ended_at is not None:
        if login_session.end_reason == "idle":
            raise AuthFailure("session_idle_timeout", "signed out after inactivity")
        raise AuthFailure("session_ended", "this session has ended; sign in again")
    if now - login_session.last_seen_at > idle_timeout:
        login_session.ended_at, login_session.end_reason = now, "idle"
        raise AuthFailure("session_idle_timeout", "signed out after inactivity", ended_session=True)
    if now >= login_session.expires_at:
        login_session.ended_at, login_session.end_reason = now, "expired"
        raise AuthFailure(
            "session_expired", "this session has expired; sign in again", ended_session=True
        )
    if user.disabled_at is not None:
        raise AuthFailure("user_disabled", "this account is disabled")
    if now - login_session.last_seen_at > LAST_SEEN_GRANULARITY:
        login_session.last_seen_at = now
    return SessionAuth(user, login_session)


def csrf_matches(login_session: LoginSession, presented: str | None) -> bool:
    return presented is not None and tokens.matches(presented, login_session.csrf_hash)


async def end_login_session(db: AsyncSession, login_session: LoginSession, ip: str | None) -> None:
    login_session.ended_at, login_session.end_reason = _now(), "logout"
    actor = audit.Actor(login_session.workspace_id, login_session.user_id, ip_address=ip)
    await audit.record(
        db, actor, "auth.logout", resource_type="login_session", resource_ids=[login_session.id]
    )


@dataclass(frozen=True)
class TokenAuth:
    user: User
    token: ApiToken


async def resolve_api_token(db: AsyncSession, presented: str, ip: str | None) -> TokenAuth:
    found = (
        await db.execute(
            select(ApiToken, User)
            .join(User, User.id == ApiToken.user_id)
            .where(ApiToken.token_hash == tokens.digest(presented))
        )
    ).one_or_none()
    if found is None:
        raise AuthFailure("invalid_token", "the API token is not valid")
    token, user = found
    if token.revoked_at is not None:
        raise AuthFailure("token_revoked", "the API token has been revoked")
    if user.disabled_at is not None:
        raise AuthFailure("user_disabled", "this account is disabled")
    now = _now()
    if token.last_used_at is None or now - token.last_used_at > TOKEN_USE_GRANULARITY:
        # Every audited access carries the token id; this marks use at most once a minute.
        # Recorded just before commit, like every other event, so the audit-chain lock is
        # always the last lock a transaction takes (taken here, it could deadlock with row
        # locks the request takes later).
        token.last_used_at = now
        actor = audit.Actor(token.workspace_id, user.id, token.id, ip)
        token_id = token.id

        async def record_use() -> None:
            await audit.record(
                db, actor, "auth.token_used", resource_type="api_token", resource_ids=[token_id]
            )

        before_commit(db, record_use)
    return TokenAuth(user, token)


# --- API tokens --------------------------------------------------------------------------------


async def create_api_token(
    db: AsyncSession, user: User, name: str, ip: str | None
) -> tuple[ApiToken, str]:
    secret = tokens.new_api_token()
    token = ApiToken(
        workspace_id=user.workspace_id,
        user_id=user.id,
        name=name,
        token_hash=tokens.digest(secret),
        prefix=secret[:12],
        created_at=_now(),
    )
    db.add(token)
    await db.flush()
    actor = audit.Actor(user.workspace_id, user.id, ip_address=ip)
    await audit.record(
        db, actor, "api_token.create", resource_type="api_token", resource_ids=[token.id]
    )
    return token, secret


async def list_api_tokens(db: AsyncSession, user: User) -> list[ApiToken]:
    statement = in_workspace(ApiToken, user.workspace_id).order_by(ApiToken.created_at.desc())
    if user.role != Role.OWNER.value:
        statement = statement.where(ApiToken.user_id == user.id)
    return list((await db.execute(statement)).scalars())


async def revoke_api_token(
    db: AsyncSession, user: User, token_id: uuid.UUID, actor: audit.Actor
) -> bool:
    """Revoke at once; False when the caller cannot see such a token."""
    statement = in_workspace(ApiToken, user.workspace_id).where(ApiToken.id == token_id)
    if user.role != Role.OWNER.value:
        statement = statement.where(ApiToken.user_id == user.id)
    token = (await db.execute(statement)).scalar_one_or_none()
    if token is None:
        return False
    if token.revoked_at is None:
        token.revoked_at = _now()
        await audit.record(
            db, actor, "api_token.revoke", resource_type="api_token", resource_ids=[token.id]
        )
    return True
