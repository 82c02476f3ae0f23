"""Owners manage the practice's service accounts and their tokens (cookie session only;
creating, disabling, deleting and issuing tokens need the password proved recently, like
personal tokens)."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Response

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentOwner, RecentOwner
from carevault.auth.permissions import SESSION_ONLY, declare
from carevault.service_accounts import service as service_accounts
from carevault.service_accounts.schemas import (
    ServiceAccountCreate,
    ServiceAccountRead,
    ServiceAccountTokenCreate,
    ServiceAccountTokenCreated,
    ServiceAccountTokenRead,
)

router = APIRouter(prefix="/service-accounts", tags=["service accounts"], route_class=ApiRoute)

_ONE = error_responses(*AUTHENTICATED, 404)


@router.post(
    "",
    response_model=ServiceAccountRead,
    status_code=201,
    responses=error_responses(*AUTHENTICATED, codes=("scope_not_allowed",)),
)
@declare(SESSION_ONLY)
async def create_service_account(
    body: ServiceAccountCreate, owner: RecentOwner, db: DbSession, idempotency: Idempotency
) -> ServiceAccountRead:
    """Create an integration identity that belongs to the practice: its tokens keep working
    when the owner who created it is disabled. Owners, with the password proved in the last
    5 minutes."""
    account = await service_accounts.create(
        db,
        owner.user,
        owner.actor,
        name=body.name,
        scopes=body.all_scopes,
        expires_in_days=body.expires_in_days,
    )
    return await idempotency.remember(201, ServiceAccountRead.model_validate(account))


@router.get("", response_model=Page[ServiceAccountRead], responses=error_responses(*AUTHENTICATED))
@declare(SESSION_ONLY)
async def list_service_accounts(
    owner: CurrentOwner, db: DbSession, paging: PageParams
) -> Page[ServiceAccountRead]:
    """The practice's service accounts, newest first (deleted ones are left out)."""
    accounts, total = await service_accounts.list_accounts(db, owner.workspace_id, paging)
    return Page.of([ServiceAccountRead.model_validate(a) for a in accounts], total, paging)


@router.get("/{service_account_id}", response_model=ServiceAccountRead, responses=_ONE)
@declare(SESSION_ONLY)
async def get_service_account(
    service_account_id: uuid.UUID, owner: CurrentOwner, db: DbSession
) -> ServiceAccountRead:
    account = await service_accounts.get(db, owner.workspace_id, service_account_id)
    return ServiceAccountRead.model_validate(account)


@router.post("/{service_account_id}/disable", response_model=ServiceAccountRead, responses=_ONE)
@declare(SESSION_ONLY)
async def disable_service_account(
    service_account_id: uuid.UUID, owner: RecentOwner, db: DbSession
) -> ServiceAccountRead:
    """Its tokens are refused (401 `service_account_disabled`) until it is enabled again."""
    account = await service_accounts.set_disabled(
        db, owner.workspace_id, service_account_id, owner.actor, disabled=True
    )
    return ServiceAccountRead.model_validate(account)


@router.post("/{service_account_id}/enable", response_model=ServiceAccountRead, responses=_ONE)
@declare(SESSION_ONLY)
async def enable_service_account(
    service_account_id: uuid.UUID, owner: RecentOwner, db: DbSession
) -> ServiceAccountRead:
    account = await service_accounts.set_disabled(
        db, owner.workspace_id, service_account_id, owner.actor, disabled=False
    )
    return ServiceAccountRead.model_validate(account)


@router.delete("/{service_account_id}", status_code=204, responses=_ONE)
@declare(SESSION_ONLY)
async def delete_service_account(
    service_account_id: uuid.UUID, owner: RecentOwner, db: DbSession
) -> Response:
    """Every token is revoked for good; the audit trail keeps naming the account."""
    await service_accounts.delete(db, owner.workspace_id, service_account_id, owner.actor)
    return Response(status_code=204)


@router.post(
    "/{service_account_id}/tokens",
    response_model=ServiceAccountTokenCreated,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=("service_account_inactive",),
    ),
)
@declare(SESSION_ONLY)
async def create_service_account_token(
    service_account_id: uuid.UUID,
    body: ServiceAccountTokenCreate,
    owner: RecentOwner,
    db: DbSession,
    idempotency: Idempotency,
) -> ServiceAccountTokenCreated:
    """Issue a token with the account's scopes. The token is in this response only."""
    token, secret = await service_accounts.issue_token(
        db,
        owner.workspace_id,
        service_account_id,
        owner.actor,
        name=body.name,
        expires_in_days=body.expires_in_days,
    )
    created = ServiceAccountTokenCreated(
        **ServiceAccountTokenRead.model_validate(token).model_dump(), token=secret
    )
    return await idempotency.remember(201, created)


@router.get(
    "/{service_account_id}/tokens",
    response_model=Page[ServiceAccountTokenRead],
    responses=_ONE,
)
@declare(SESSION_ONLY)
async def list_service_account_tokens(
    service_account_id: uuid.UUID, owner: CurrentOwner, db: DbSession, paging: PageParams
) -> Page[ServiceAccountTokenRead]:
    tokens, total = await service_accounts.list_tokens(
        db, owner.workspace_id, service_account_id, paging
    )
    return Page.of([ServiceAccountTokenRead.model_validate(t) for t in tokens], total, paging)


@router.delete("/{service_account_id}/tokens/{token_id}", status_code=204, responses=_ONE)
@declare(SESSION_ONLY)
async def revoke_service_account_token(
    service_account_id: uuid.UUID, token_id: uuid.UUID, owner: CurrentOwner, db: DbSession
) -> Response:
    """Revoke at once (no password prompt: revoking a leaked token must be quick)."""
    await service_accounts.revoke_token(
        db, owner.workspace_id, service_account_id, token_id, owner.actor
    )
    return Response(status_code=204)
