"""Users, sign-in, login sessions and API tokens."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Executable, Select, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.auth import throttle, tokens
from carevault.auth.models import (
    ApiToken,
    LoginSession,
    Role,
    ServiceAccount,
    TrustedDevice,
    User,
)
from carevault.auth.passwords import (
    MIN_PASSWORD_LENGTH,
    hash_password,
    needs_rehash,
    verify_password,
)
from carevault.auth.principal import ACCOUNT_COLUMNS, Account, ServiceAccountRef
from carevault.auth.scopes import (
    EVERY_SCOPE,
    SmartScopeError,
    expand_scopes,
    refuse_scopes_beyond_role,
)
from carevault.core.clock import utc_now
from carevault.core.errors import not_found
from carevault.core.fields import invalid
from carevault.db import direct
from carevault.db.alone import alone
from carevault.db.hooks import before_commit
from carevault.db.paging import PageRequest, fetch_page
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.workspaces.models import Workspace

SESSION_LIFETIME = timedelta(hours=12)
LAST_SEEN_GRANULARITY = timedelta(seconds=30)
TOKEN_USE_GRANULARITY = timedelta(minutes=1)
REAUTH_WINDOW = timedelta(minutes=5)  # sensitive actions need the password this recently
TRUSTED_DEVICE_LIFETIME = timedelta(days=180)  # also the device cookie's max-age


@cache
def dummy_hash() -> str:
    """What a password is verified against when the email is unknown, so that both failures
    take as long. Made on first use, not at import: most commands never check a password,
    and one hash costs ~150 ms of CPU. The app makes it as it starts (`create_app`), so the
    first unknown email is not slower than the others."""
    return hash_password("not a real password, only for timing")


class UserError(ValueError):
    """A user cannot be created as asked; the message says why (never the address itself)."""


class UserExists(UserError):
    """The practice already has a user with this address (the API's 409 `user_exists`)."""


# The unique index behind "one account per address and practice" (auth.models.User).
_UNIQUE_EMAIL_INDEX = "uq_users_workspace_email_lower"


def _email_taken(error: IntegrityError) -> bool:
    """Whether the INSERT lost to a concurrent one of the same address in the same practice
    (asyncpg's error, wrapped by SQLAlchemy, names the index)."""
    cause = error.orig.__cause__ if error.orig is not None else None
    return getattr(cause, "constraint_name", None) == _UNIQUE_EMAIL_INDEX


class AccountConflict(ValueError):
    """The account change conflicts with the practice's state (for example, the last owner)."""


async def accounts_by_email(db: AsyncSession, email: str) -> list[User]:
    """Every account with this address, oldest first: one per practice at most."""
    statement = (
        # unscoped: sign-in by email finds the accounts (and so the practices) to check
        select(User)
        .where(func.lower(User.email) == email.strip().lower())
        .order_by(User.created_at, User.id)
    )
    return list((await db.execute(statement)).scalars())


# Every sign-in attempt verifies exactly this many argon2 hashes, padded with the dummy hash,
# however many accounts the address has (none, one per practice): the time a failure takes
# must not tell how many practices know the address. So an address is checked against at
# most this many of its accounts (see `_candidates`).
SIGN_IN_HASH_CHECKS = 2


def _candidates(accounts: list[User], device_user: uuid.UUID | None) -> list[User]:
    """The accounts a password is checked against, oldest first: the oldest ones, the
    account this browser signed in to before (trusted-device cookie) always among them."""
    chosen = accounts[:SIGN_IN_HASH_CHECKS]
    device = next((a for a in accounts if a.id == device_user), None)
    if device is not None and device not in chosen:
        chosen = [*chosen[: SIGN_IN_HASH_CHECKS - 1], device]
    return chosen


def _verify_each(password_hashes: list[str], password: str) -> list[bool]:
    return [verify_password(stored, password) for stored in password_hashes]


async def _password_match(
    accounts: list[User], password: str, device_user: uuid.UUID | None = None
) -> tuple[User | None, bool]:
    """The first candidate account whose password matches (else the first account,
    unverified), and whether it matched. Always SIGN_IN_HASH_CHECKS verifications, every one
    run whatever the earlier ones found, the dummy hash standing in for missing accounts, and
    the decision made after: a failure takes as long for an unknown address as for one in
    several practices. argon2id takes ~150 ms of CPU and 64 MiB a hash: off the event loop,
    so the worker keeps serving."""
    candidates = _candidates(accounts, device_user)
    hashes = [account.password_hash for account in candidates]
    hashes += [dummy_hash()] * (SIGN_IN_HASH_CHECKS - len(hashes))
    matched = await asyncio.to_thread(_verify_each, hashes, password)
    for account, valid in zip(candidates, matched, strict=False):
        if valid:
            return account, True
    return (accounts[0] if accounts else None), False


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
        raise UserError("that is not an email address")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise UserError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    # Only this practice's accounts are checked: whether another practice uses the address
    # is none of this practice's business, and the answer must not tell.
    taken = await db.scalar(
        in_workspace(User, workspace.id)
        .where(func.lower(User.email) == email.lower())
        .with_only_columns(User.id)
    )
    if taken is not None:
        raise UserExists("a user with this email already exists in this workspace")
    user = User(
        workspace_id=workspace.id,
        email=email,
        display_name=display_name or email.split("@")[0],
        password_hash=await asyncio.to_thread(hash_password, password),
        role=role.value,
    )
    # Two requests adding the same address at once both pass the check above; the unique
    # index lets one in and the other is answered as if the check had caught it. In a
    # savepoint, so the caller's transaction stays usable; the driver's message (which
    # quotes the address) is dropped, never logged.
    try:
        async with db.begin_nested():
            db.add(user)
    except IntegrityError as error:
        if not _email_taken(error):
            raise
        raise UserExists("a user with this email already exists in this workspace") from None
    return user


async def list_users(
    db: AsyncSession, workspace_id: uuid.UUID, paging: PageRequest
) -> tuple[list[User], int]:
    statement = in_workspace(User, workspace_id).order_by(User.email, User.id)
    return await fetch_page(db, statement, paging)


async def list_clinicians(db: AsyncSession, workspace_id: uuid.UUID) -> Sequence[User]:
    """Every user of the workspace (each has a calendar), by display name (email if unset)."""
    name = func.coalesce(func.nullif(User.display_name, ""), User.email)
    statement = in_workspace(User, workspace_id).order_by(name, User.id)
    return (await db.scalars(statement)).all()


# --- sign-in ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoginSucceeded:
    user: User
    workspace: Workspace
    session_secret: str
    csrf_token: str
    login_session: LoginSession
    device_secret: str | None  # a new trusted-device cookie to set, if any


@dataclass(frozen=True)
class LoginFailed:
    pass


@dataclass(frozen=True)
class LoginRateLimited:
    retry_after_seconds: int


LoginResult = LoginSucceeded | LoginFailed | LoginRateLimited


def _email_key(email: str) -> bytes:
    return tokens.digest("login:" + email.strip().lower())


async def _trusted_device(
    db: AsyncSession, accounts: list[User], secret: str | None
) -> TrustedDevice | None:
    """The trusted browser of one of these accounts that holds this secret: one query, however
    many accounts the address has. A secret found twice trusts neither browser (hashes are
    unique only within a practice: one_credential)."""
    if not secret or not accounts:
        return None
    statement = (
        # unscoped: the address's accounts (found unscoped) may be in several practices
        select(TrustedDevice).where(
            TrustedDevice.secret_hash == tokens.digest(secret),
            TrustedDevice.user_id.in_([account.id for account in accounts]),
        )
    )
    return one_credential((await db.execute(statement)).scalars().all())


async def login(
    db: AsyncSession,
    email: str,
    password: str,
    ip: str | None,
    device_secret: str | None = None,
) -> LoginResult:
    """Check the credentials; the same LoginFailed for an unknown email and a wrong password.

    Throttled per normalised email (see `throttle`); a browser that signed in as this user
    before has a bucket of its own, so a stranger's guesses cannot lock the user out of it.
    """
    email_key = _email_key(email)
    # One account per practice can share an address: the throttle counts per address, and
    # the password is checked against its accounts (a fixed amount of work: `_password_match`).
    accounts = await accounts_by_email(db, email)
    device = await _trusted_device(db, accounts, device_secret)
    first = accounts[0] if accounts else None
    bucket = throttle.bucket_key(
        "email", email_key.hex(), *(("device", str(device.id)) if device else ())
    )
    subject = throttle.Subject(
        email_key, first.workspace_id if first else None, first.id if first else None
    )
    # Commits: whatever the session held so far is written, and the lock is released.
    gate = await throttle.begin(db, bucket, subject, ip, check_address=device is None)
    if isinstance(gate, throttle.Refused):
        return LoginRateLimited(gate.retry_after_seconds)
    user, valid = await _password_match(accounts, password, device.user_id if device else None)
    if user is None or not valid or user.disabled_at is not None:
        await throttle.finish(db, gate.attempt_id, succeeded=False)
        actor = audit.Actor(workspace_id=user.workspace_id if user else None, ip_address=ip)
        await audit.record(
            db,
            actor,
            "auth.login_failed",
            resource_type="user",
            resource_ids=[user.id] if user else None,
        )
        return LoginFailed()
    await throttle.finish(db, gate.attempt_id, succeeded=True)
    if needs_rehash(user.password_hash):
        user.password_hash = await asyncio.to_thread(hash_password, password)
    workspace = await db.get_one(Workspace, user.workspace_id)
    secret = tokens.new_secret()
    csrf = tokens.csrf_token_for(secret)
    now = utc_now()
    login_session = LoginSession(
        workspace_id=user.workspace_id,
        user_id=user.id,
        secret_hash=tokens.digest(secret),
        csrf_hash=tokens.digest(csrf),
        created_at=now,
        last_seen_at=now,
        expires_at=now + SESSION_LIFETIME,
        reauthenticated_at=now,
    )
    db.add(login_session)
    new_device_secret = None
    if device is None:
        # Browsers unused for the cookie's lifetime are forgotten when another one is added.
        await db.execute(
            delete(TrustedDevice).where(
                workspace_filter(TrustedDevice, user.workspace_id),
                TrustedDevice.user_id == user.id,
                TrustedDevice.last_used_at < now - TRUSTED_DEVICE_LIFETIME,
            )
        )
        new_device_secret = tokens.new_secret()
        db.add(
            TrustedDevice(
                workspace_id=user.workspace_id,
                user_id=user.id,
                secret_hash=tokens.digest(new_device_secret),
                created_at=now,
                last_used_at=now,
            )
        )
    else:
        device.last_used_at = now
    await db.flush()
    actor = audit.Actor(workspace_id=user.workspace_id, user_id=user.id, ip_address=ip)
    await audit.record(
        db, actor, "auth.login", resource_type="login_session", resource_ids=[login_session.id]
    )
    return LoginSucceeded(user, workspace, secret, csrf, login_session, new_device_secret)


async def check_session_password(
    db: AsyncSession,
    user: Account,
    login_session: LoginSession,
    password: str,
) -> bool | LoginRateLimited:
    """Prove the password again inside a login session (re-authentication, password
    change). Throttled per login session, so a stolen cookie cannot be used to guess fast, and a
    stranger's sign-in guesses do not get in the way."""
    bucket = throttle.bucket_key("session", str(login_session.id))
    subject = throttle.Subject(_email_key(user.email), user.workspace_id, user.id)
    gate = await throttle.begin(db, bucket, subject, None, check_address=False)  # commits
    if isinstance(gate, throttle.Refused):
        return LoginRateLimited(gate.retry_after_seconds)
    stored = (await _user_of(db, user)).password_hash
    valid = await asyncio.to_thread(verify_password, stored, password)
    await throttle.finish(db, gate.attempt_id, succeeded=valid)
    return valid


async def reauthenticate(
    db: AsyncSession, login_session: LoginSession, actor: audit.Actor
) -> datetime:
    now = utc_now()
    login_session.reauthenticated_at = now
    await audit.record(
        db,
        actor,
        "auth.reauthenticate",
        resource_type="login_session",
        resource_ids=[login_session.id],
    )
    return now


def recently_reauthenticated(login_session: LoginSession) -> bool:
    proved = login_session.reauthenticated_at
    return proved is not None and utc_now() - proved <= REAUTH_WINDOW


# --- accounts ----------------------------------------------------------------------------------


async def _end_sessions(
    db: AsyncSession, user: User, reason: str, *, keep: uuid.UUID | None = None
) -> int:
    statement = (
        update(LoginSession)
        .where(
            workspace_filter(LoginSession, user.workspace_id),
            LoginSession.user_id == user.id,
            LoginSession.ended_at.is_(None),
        )
        .values(ended_at=utc_now(), end_reason=reason)
    )
    if keep is not None:
        statement = statement.where(LoginSession.id != keep)
    result = await db.execute(statement.execution_options(synchronize_session=False))
    return int(getattr(result, "rowcount", 0) or 0)


async def change_password(
    db: AsyncSession,
    account: Account,
    login_session: LoginSession,
    new_password: str,
    actor: audit.Actor,
) -> int:
    """Set a new password (checked by the caller); end every other session of the user.
    Returns how many sessions were ended."""
    if len(new_password) < MIN_PASSWORD_LENGTH:
        raise UserError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    user = await _user_of(db, account)
    if await asyncio.to_thread(verify_password, user.password_hash, new_password):
        raise UserError("the new password must differ from the current one")
    user.password_hash = await asyncio.to_thread(hash_password, new_password)
    user.must_change_password = False
    login_session.reauthenticated_at = utc_now()
    ended = await _end_sessions(db, user, "password", keep=login_session.id)
    await audit.record(
        db,
        actor,
        "auth.password_change",
        resource_type="user",
        resource_ids=[user.id],
        details={"sessions_ended": ended},
    )
    return ended


async def get_user(db: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID) -> User | None:
    statement = in_workspace(User, workspace_id).where(User.id == user_id)
    return (await db.execute(statement)).scalar_one_or_none()


async def _user_of(db: AsyncSession, account: Account) -> User:
    """The calling user's instance, for a change to it or its password hash (never in a
    principal: most requests need neither)."""
    user = await get_user(db, account.workspace_id, account.id)
    if user is None:  # its credential was read in this request: deleted since, in a race
        raise not_found("user")
    return user


async def _active_owners(db: AsyncSession, workspace_id: uuid.UUID) -> int:
    statement = (
        select(func.count())
        .select_from(User)
        .where(
            workspace_filter(User, workspace_id),
            User.role == Role.OWNER.value,
            User.disabled_at.is_(None),
        )
    )
    return int(await db.scalar(statement) or 0)


async def disable_user(
    db: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID, actor: audit.Actor
) -> User | None:
    """Disable at once: every session ends, every token is revoked, trusted browsers are
    forgotten. Enabling later brings none of them back. None: no such user here."""
    # Serialise per workspace so two owners cannot disable each other at once (NO KEY UPDATE:
    # inserts that reference the workspace are not blocked). Taken before this transaction
    # writes anything (no autoflush of the caller's own session row): otherwise two owners
    # disabling each other would each hold a session row the other must end.
    with db.no_autoflush:
        await db.execute(
            select(Workspace.id).where(Workspace.id == workspace_id).with_for_update(key_share=True)
        )
        target = await get_user(db, workspace_id, user_id)
    if target is None:
        return None
    if target.id == actor.user_id:
        raise AccountConflict("you cannot disable your own account")
    await db.refresh(target)
    if target.disabled_at is not None:
        return target
    if target.role == Role.OWNER.value and await _active_owners(db, target.workspace_id) <= 1:
        raise AccountConflict("the practice must keep at least one active owner")
    now = utc_now()
    target.disabled_at = now
    sessions_ended = await _end_sessions(db, target, "disabled")
    revoked = await db.execute(
        update(ApiToken)
        .where(
            workspace_filter(ApiToken, target.workspace_id),
            ApiToken.user_id == target.id,
            ApiToken.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    await db.execute(
        delete(TrustedDevice)
        .where(workspace_filter(TrustedDevice, target.workspace_id))
        .where(TrustedDevice.user_id == target.id)
    )
    await audit.record(
        db,
        actor,
        "user.disable",
        resource_type="user",
        resource_ids=[target.id],
        details={
            "sessions_ended": sessions_ended,
            "tokens_revoked": int(getattr(revoked, "rowcount", 0) or 0),
        },
    )
    return target


async def enable_user(db: AsyncSession, target: User, actor: audit.Actor) -> None:
    if target.disabled_at is None:
        return
    target.disabled_at = None
    await audit.record(db, actor, "user.enable", resource_type="user", resource_ids=[target.id])


async def update_user(
    db: AsyncSession, target: User, changes: dict[str, Any], actor: audit.Actor
) -> None:
    """An owner sets whether `target` needs co-signatures and who supervises them (a user
    of the same practice other than `target`)."""
    if "supervisor_id" in changes and changes["supervisor_id"] is not None:
        supervisor = await get_user(db, target.workspace_id, changes["supervisor_id"])
        if supervisor is None:
            raise UserError("the supervisor must be a user of your practice")
        if supervisor.id == target.id:
            raise UserError("a user cannot supervise themselves")
        if supervisor.disabled_at is not None:
            raise UserError("the supervisor's account is disabled")
    details: dict[str, Any] = {}
    for name, value in changes.items():
        details[f"previous_{name}"] = _json_ready(getattr(target, name))
        details[name] = _json_ready(value)
        setattr(target, name, value)
    await db.flush()
    await audit.record(
        db, actor, "user.update", resource_type="user", resource_ids=[target.id], details=details
    )


def _json_ready(value: Any) -> Any:
    return str(value) if isinstance(value, uuid.UUID) else value


async def set_temporary_password(
    db: AsyncSession, target: User, password: str, actor: audit.Actor
) -> None:
    """An owner's reset: the user must choose a new password at the next sign-in, and every
    session signed in with the old one ends."""
    if target.id == actor.user_id:
        raise AccountConflict("change your own password with POST /auth/password")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise UserError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    target.password_hash = await asyncio.to_thread(hash_password, password)
    target.must_change_password = True
    ended = await _end_sessions(db, target, "password")
    await audit.record(
        db,
        actor,
        "user.temporary_password",
        resource_type="user",
        resource_ids=[target.id],
        details={"sessions_ended": ended},
    )


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
class ChartPolicy:
    """The practice's chart access settings, as the credential lookup read them."""

    chart_access: str = "practice"
    break_the_glass: bool = False

    @classmethod
    def from_row(cls, row: Any) -> ChartPolicy:
        return cls(row.workspace_chart_access, row.workspace_break_the_glass)


@dataclass(frozen=True)
class LoginSessionAuth:
    user: Account
    login_session: LoginSession
    workspace_shredded: bool = False  # the caller must get 410 (auth.dependencies)
    policy: ChartPolicy = ChartPolicy()


# Every authenticated request runs one of these: built once, with the user's columns and
# the practice's `shredded_at` in the same round trip, so that revocation, disabling and a
# shred still take effect on the very next request. The session comes back as an instance
# (a request may end it or mark it seen); the token and the user as plain columns (a
# token's use is marked with an UPDATE).
_ACCOUNT_COLUMNS = [getattr(User, name).label("user_" + name) for name in ACCOUNT_COLUMNS]
_SHREDDED_AT = Workspace.shredded_at.label("workspace_shredded_at")
# The practice's chart access policy (carevault.clients.access), in the same round trip.
_POLICY = (
    Workspace.chart_access.label("workspace_chart_access"),
    Workspace.break_the_glass.label("workspace_break_the_glass"),
)


def _login_session_by_secret(*session_columns: Any) -> Select[Any]:
    return (
        # unscoped: the session's secret is what tells which practice the caller belongs to
        select(*session_columns, *_ACCOUNT_COLUMNS, _SHREDDED_AT, *_POLICY)
        .join(User, User.id == LoginSession.user_id)
        .join(Workspace, Workspace.id == User.workspace_id)
        .where(LoginSession.secret_hash == bindparam("digest"))
    )


_LOGIN_SESSION_BY_SECRET = _login_session_by_secret(LoginSession)
# The same, with the session as plain columns too, for the direct pool (carevault.db.direct).
_LOGIN_SESSION_ROW = _login_session_by_secret(*direct.columns_of(LoginSession, "credential_"))
_TOKEN_ROW = (
    # unscoped: the token's digest is what tells which practice the caller belongs to
    select(
        ApiToken.id.label("token_id"),
        ApiToken.workspace_id.label("token_workspace_id"),
        ApiToken.scopes.label("token_scopes"),
        ApiToken.last_used_at.label("token_last_used_at"),
        ApiToken.revoked_at.label("token_revoked_at"),
        ApiToken.expires_at.label("token_expires_at"),
        ApiToken.service_account_id.label("token_service_account_id"),
        ServiceAccount.name.label("sa_name"),
        ServiceAccount.expires_at.label("sa_expires_at"),
        ServiceAccount.disabled_at.label("sa_disabled_at"),
        ServiceAccount.deleted_at.label("sa_deleted_at"),
        *_ACCOUNT_COLUMNS,
        _SHREDDED_AT,
        *_POLICY,
    )
    # A personal token has a user, a service account's token its account (never both).
    .outerjoin(User, User.id == ApiToken.user_id)
    .outerjoin(ServiceAccount, ServiceAccount.id == ApiToken.service_account_id)
    .join(Workspace, Workspace.id == ApiToken.workspace_id)
    .where(ApiToken.token_hash == bindparam("digest"))
)


RowT = TypeVar("RowT")


def one_credential(rows: Sequence[RowT]) -> RowT | None:
    """The one row a secret's hash finds, or None. Hashes are unique only within a practice
    (migration 0029, so that a Citus cluster can shard on the practice), and the lookup
    comes before the practice is known: a hash found in two practices (a 256-bit random
    secret never repeats, so only a planted row does that) authenticates no one, rather
    than whichever row came first."""
    return rows[0] if len(rows) == 1 else None


async def _credential_row(db: AsyncSession, statement: Executable, digest: bytes) -> Any | None:
    """The row of a credential lookup, read by a statement of its own (a SELECT needs no
    transaction, and the request's first statement would otherwise open one: BEGIN …
    COMMIT, two more round trips), on the direct pool when the app has one. Read every
    time, so a revocation holds from the very next request."""
    return one_credential(await direct.rows_alone(db, statement, {"digest": digest}))


async def resolve_login_session(
    db: AsyncSession, secret: str, idle_timeout: timedelta
) -> LoginSessionAuth:
    values = {"digest": tokens.digest(secret)}
    pool = direct.pool_for(db)
    if pool is None:
        async with alone(db):
            found = one_credential((await db.execute(_LOGIN_SESSION_BY_SECRET, values)).all())
        if found is None:
            raise AuthFailure("not_authenticated", "sign in first")
        login_session: LoginSession = found[0]
    else:  # as plain columns, made into the instance the session would have loaded
        found = one_credential(await pool.fetch(_LOGIN_SESSION_ROW, values))
        if found is None:
            raise AuthFailure("not_authenticated", "sign in first")
        # A change to it is flushed as an UPDATE.
        login_session = direct.entity(db, found, LoginSession, "credential_")
    user = Account.from_row(found, "user_")
    now = utc_now()
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
    return LoginSessionAuth(
        user, login_session, found.workspace_shredded_at is not None, ChartPolicy.from_row(found)
    )


def csrf_matches(login_session: LoginSession, presented: str | None) -> bool:
    return presented is not None and tokens.matches(presented, login_session.csrf_hash)


async def end_login_session(db: AsyncSession, login_session: LoginSession, ip: str | None) -> None:
    login_session.ended_at, login_session.end_reason = utc_now(), "logout"
    actor = audit.Actor(login_session.workspace_id, login_session.user_id, ip_address=ip)
    await audit.record(
        db, actor, "auth.logout", resource_type="login_session", resource_ids=[login_session.id]
    )


@dataclass(frozen=True)
class TokenAuth:
    user: Account
    token_id: uuid.UUID
    scopes: list[str]
    workspace_shredded: bool = False  # the caller must get 410 (auth.dependencies)
    policy: ChartPolicy = ChartPolicy()
    service_account: ServiceAccountRef | None = None


async def resolve_api_token(db: AsyncSession, presented: str, ip: str | None) -> TokenAuth:
    found = await _credential_row(db, _TOKEN_ROW, tokens.digest(presented))
    if found is None:
        raise AuthFailure("invalid_token", "the API token is not valid")
    if found.token_revoked_at is not None:
        raise AuthFailure("token_revoked", "the API token has been revoked")
    now = utc_now()
    if found.token_expires_at is not None and now >= found.token_expires_at:
        raise AuthFailure("token_expired", "the API token has expired")
    token_id: uuid.UUID = found.token_id
    service_account: ServiceAccountRef | None = None
    if found.token_service_account_id is not None:
        if found.sa_deleted_at is not None:
            raise AuthFailure("token_revoked", "the API token has been revoked")
        if found.sa_disabled_at is not None:
            raise AuthFailure("service_account_disabled", "this service account is disabled")
        if found.sa_expires_at is not None and now >= found.sa_expires_at:
            raise AuthFailure("token_expired", "the service account has expired")
        service_account = ServiceAccountRef(found.token_service_account_id, found.sa_name)
        user = service_account.as_account(found.token_workspace_id)
    else:
        user = Account.from_row(found, "user_")
        if user.disabled_at is not None:
            raise AuthFailure("user_disabled", "this account is disabled")
    last_used = found.token_last_used_at
    if last_used is None or now - last_used > TOKEN_USE_GRANULARITY:
        # Every audited access carries the token id; this marks use at most once a minute.
        # Recorded just before commit, like every other event, so the audit-chain lock is
        # always the last lock a transaction takes (taken here, it could deadlock with row
        # locks the request takes later).
        workspace_id: uuid.UUID = found.token_workspace_id
        # A service account is no user: its events name it through the token alone.
        actor = audit.Actor(workspace_id, None if service_account else user.id, token_id, ip)

        async def record_use() -> None:
            await db.execute(
                update(ApiToken)
                .where(workspace_filter(ApiToken, workspace_id), ApiToken.id == token_id)
                .values(last_used_at=now)
            )
            await audit.record(
                db, actor, "auth.token_used", resource_type="api_token", resource_ids=[token_id]
            )

        before_commit(db, record_use)
    shredded = found.workspace_shredded_at is not None
    return TokenAuth(
        user,
        token_id,
        list(found.token_scopes),
        shredded,
        ChartPolicy.from_row(found),
        service_account,
    )


# --- API tokens --------------------------------------------------------------------------------


async def create_api_token(
    db: AsyncSession,
    user: Account,
    name: str,
    ip: str | None,
    *,
    scopes: Sequence[str],
    expires_in_days: int | None = None,
) -> tuple[ApiToken, str]:
    # SMART scopes (`user/Patient.rs`) are kept as given, next to the CareVault scopes they
    # map onto: /api/v1 checks the latter, /fhir/R4 both (carevault.auth.scopes).
    try:
        scopes, smart = expand_scopes(scopes)
    except SmartScopeError as refused:
        raise UserError(str(refused)) from None
    unknown = set(scopes) - set(EVERY_SCOPE)
    if unknown or not (scopes or smart):
        raise UserError("name at least one known scope")
    system = [scope for scope in smart if scope.startswith("system/")]
    if system:
        # Practice-wide access for a backend service is a service account's, whose tokens
        # outlive any one person (a personal token stops when its user is disabled).
        refusal = invalid(
            "scope_not_allowed",
            f"{', '.join(system)}: system/ SMART scopes belong to service accounts "
            "(POST /api/v1/service-accounts); a personal token takes user/ scopes",
            "scopes",
        )
        refusal.details = [{**detail, "scopes": system} for detail in refusal.details]
        raise refusal
    refuse_scopes_beyond_role(user.role, scopes)
    secret = tokens.new_api_token()
    now = utc_now()
    token = ApiToken(
        workspace_id=user.workspace_id,
        user_id=user.id,
        name=name,
        token_hash=tokens.digest(secret),
        prefix=secret[:12],
        created_at=now,
        scopes=[*scopes, *smart],
        expires_at=now + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    db.add(token)
    await db.flush()
    actor = audit.Actor(user.workspace_id, user.id, ip_address=ip)
    await audit.record(
        db,
        actor,
        "api_token.create",
        resource_type="api_token",
        resource_ids=[token.id],
        details={"scopes": token.scopes, "expires_in_days": expires_in_days},
    )
    return token, secret


async def list_api_tokens(
    db: AsyncSession, user: Account, paging: PageRequest
) -> tuple[list[ApiToken], int]:
    statement = (
        in_workspace(ApiToken, user.workspace_id)
        # A service account's tokens are listed under it (GET /service-accounts/{id}/tokens).
        .where(ApiToken.user_id.is_not(None))
        .order_by(ApiToken.created_at.desc(), ApiToken.id)
    )
    if user.role != Role.OWNER.value:
        statement = statement.where(ApiToken.user_id == user.id)
    return await fetch_page(db, statement, paging)


async def revoke_api_token(
    db: AsyncSession, user: Account, token_id: uuid.UUID, actor: audit.Actor
) -> bool:
    """Revoke at once; False when the caller cannot see such a token."""
    statement = in_workspace(ApiToken, user.workspace_id).where(ApiToken.id == token_id)
    if user.role != Role.OWNER.value:
        statement = statement.where(ApiToken.user_id == user.id)
    token = (await db.execute(statement)).scalar_one_or_none()
    if token is None:
        return False
    if token.revoked_at is None:
        token.revoked_at = utc_now()
        await audit.record(
            db, actor, "api_token.revoke", resource_type="api_token", resource_ids=[token.id]
        )
    return True
