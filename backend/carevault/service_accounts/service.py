"""Service accounts: integration credentials that belong to the practice, not to a person.

An owner creates one (a name, the scopes its tokens hold, an optional expiry) and issues it
tokens. The tokens are `api_tokens` rows with `service_account_id` and no `user_id`, so
disabling or removing the owner who made them leaves them working; the audit trail names the
account through the token id every event carries (`actor_token_id`, which the seal covers).
A request with such a token acts as the practice: it sees every chart its scopes allow, like
an owner, but it is no person, so what needs a person (authoring or signing a note, being
the default clinician of an appointment, a care-team place) is refused with 403
`person_required` (Principal.person_id).

OAuth client credentials come next (docs/reference/api.md, "Service accounts"): the account
will hold a public key (`public_key_pem`, `public_key_id`) and trade a JWT it signs for a
short-lived token of this same table.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.auth import tokens
from carevault.auth.models import ApiToken, ServiceAccount
from carevault.auth.principal import Account
from carevault.auth.scopes import (
    EVERY_SCOPE,
    SmartScopeError,
    expand_scopes,
    refuse_scopes_beyond_role,
)
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, not_found
from carevault.core.fields import invalid
from carevault.db.paging import PageRequest, fetch_page
from carevault.db.scoping import in_workspace, workspace_filter


def _ordered(scopes: Sequence[str]) -> list[str]:
    return sorted(set(scopes), key=EVERY_SCOPE.index)


async def create(
    db: AsyncSession,
    owner: Account,
    actor: audit.Actor,
    *,
    name: str,
    scopes: Sequence[str],
    expires_in_days: int | None,
) -> ServiceAccount:
    # SMART scopes ride beside CareVault's: `system/` ones (the practice's backend service,
    # no user in the loop) are the service account's, kept as given next to the CareVault
    # scopes they map onto, as a personal token keeps its `user/` ones (auth.service).
    try:
        scopes, smart = expand_scopes(scopes)
    except SmartScopeError as refused:
        raise invalid("validation_error", str(refused), "scopes") from None
    if not (scopes or smart) or set(scopes) - set(EVERY_SCOPE):
        raise invalid("validation_error", "name at least one known scope", "scopes")
    personal = [scope for scope in smart if not scope.startswith("system/")]
    if personal:
        refusal = invalid(
            "scope_not_allowed",
            "a service account acts for the practice, not a user: ask for system/ SMART "
            f"scopes instead of {', '.join(personal)}",
            "scopes",
        )
        refusal.details = [{**detail, "scopes": personal} for detail in refusal.details]
        raise refusal
    # Owners may hold every scope today; checked all the same, so a role that may create
    # service accounts later cannot hand them more than it has.
    refuse_scopes_beyond_role(owner.role, scopes)
    now = utc_now()
    account = ServiceAccount(
        workspace_id=owner.workspace_id,
        name=name,
        scopes=[*_ordered(scopes), *smart],
        created_by=owner.id,
        created_at=now,
        expires_at=now + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    db.add(account)
    await db.flush()
    await audit.record(
        db,
        actor,
        "service_account.create",
        resource_type="service_account",
        resource_ids=[account.id],
        details={"scopes": account.scopes, "expires_in_days": expires_in_days},
    )
    return account


async def list_accounts(
    db: AsyncSession, workspace_id: uuid.UUID, paging: PageRequest
) -> tuple[list[ServiceAccount], int]:
    """Newest first; deleted ones are left out (the audit trail still names them)."""
    statement = (
        in_workspace(ServiceAccount, workspace_id)
        .where(ServiceAccount.deleted_at.is_(None))
        .order_by(ServiceAccount.created_at.desc(), ServiceAccount.id)
    )
    return await fetch_page(db, statement, paging)


async def get(
    db: AsyncSession, workspace_id: uuid.UUID, account_id: uuid.UUID, *, lock: bool = False
) -> ServiceAccount:
    statement = in_workspace(ServiceAccount, workspace_id).where(
        ServiceAccount.id == account_id, ServiceAccount.deleted_at.is_(None)
    )
    if lock:
        statement = statement.with_for_update()
    account = (await db.execute(statement)).scalar_one_or_none()
    if account is None:
        raise not_found("service account")
    return account


async def set_disabled(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    account_id: uuid.UUID,
    actor: audit.Actor,
    *,
    disabled: bool,
) -> ServiceAccount:
    """Disable (its tokens are refused from the next request; they come back when it is
    enabled, unlike a disabled person's) or enable."""
    account = await get(db, workspace_id, account_id, lock=True)
    if (account.disabled_at is not None) != disabled:
        account.disabled_at = utc_now() if disabled else None
        await audit.record(
            db,
            actor,
            "service_account.disable" if disabled else "service_account.enable",
            resource_type="service_account",
            resource_ids=[account.id],
        )
    return account


async def delete(
    db: AsyncSession, workspace_id: uuid.UUID, account_id: uuid.UUID, actor: audit.Actor
) -> None:
    """Gone from lists, every token revoked for good. The row stays (`deleted_at`): the
    audit trail names the account through its tokens."""
    account = await get(db, workspace_id, account_id, lock=True)
    now = utc_now()
    account.deleted_at = now
    revoked = await db.execute(
        update(ApiToken)
        .where(
            workspace_filter(ApiToken, workspace_id),
            ApiToken.service_account_id == account.id,
            ApiToken.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    await audit.record(
        db,
        actor,
        "service_account.delete",
        resource_type="service_account",
        resource_ids=[account.id],
        details={"tokens_revoked": int(getattr(revoked, "rowcount", 0) or 0)},
    )


async def issue_token(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    account_id: uuid.UUID,
    actor: audit.Actor,
    *,
    name: str,
    expires_in_days: int | None,
) -> tuple[ApiToken, str]:
    """A token with the account's scopes; the secret is returned once, only its digest kept."""
    account = await get(db, workspace_id, account_id, lock=True)
    if account.disabled_at is not None:
        raise Conflict(
            "service_account_inactive", "the service account is disabled: enable it first"
        )
    now = utc_now()
    if account.expires_at is not None and now >= account.expires_at:
        raise Conflict("service_account_inactive", "the service account has expired")
    secret = tokens.new_api_token()
    expires_at = now + timedelta(days=expires_in_days) if expires_in_days else None
    if account.expires_at is not None and (expires_at is None or expires_at > account.expires_at):
        expires_at = account.expires_at  # a token never outlives its account
    token = ApiToken(
        workspace_id=workspace_id,
        user_id=None,
        service_account_id=account.id,
        name=name,
        token_hash=tokens.digest(secret),
        prefix=secret[:12],
        created_at=now,
        scopes=list(account.scopes),
        expires_at=expires_at,
    )
    db.add(token)
    await db.flush()
    await audit.record(
        db,
        actor,
        "service_account.token_create",
        resource_type="service_account",
        resource_ids=[account.id],
        details={"token_id": str(token.id), "expires_in_days": expires_in_days},
    )
    return token, secret


async def list_tokens(
    db: AsyncSession, workspace_id: uuid.UUID, account_id: uuid.UUID, paging: PageRequest
) -> tuple[list[ApiToken], int]:
    await get(db, workspace_id, account_id)
    statement = (
        in_workspace(ApiToken, workspace_id)
        .where(ApiToken.service_account_id == account_id)
        .order_by(ApiToken.created_at.desc(), ApiToken.id)
    )
    return await fetch_page(db, statement, paging)


async def revoke_token(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    account_id: uuid.UUID,
    token_id: uuid.UUID,
    actor: audit.Actor,
) -> None:
    await get(db, workspace_id, account_id)
    statement = in_workspace(ApiToken, workspace_id).where(
        ApiToken.id == token_id, ApiToken.service_account_id == account_id
    )
    token = (await db.execute(statement)).scalar_one_or_none()
    if token is None:
        raise not_found("token")
    if token.revoked_at is None:
        token.revoked_at = utc_now()
        await audit.record(
            db,
            actor,
            "service_account.token_revoke",
            resource_type="service_account",
            resource_ids=[account_id],
            details={"token_id": str(token.id)},
        )
