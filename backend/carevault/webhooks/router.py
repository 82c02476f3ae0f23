"""Owners register webhook endpoints and read their delivery log. Signed-in sessions only
(like API tokens, which a token cannot mint either): an endpoint and its secret are a
credential of the practice. Registering, changing, deleting and rotating need the password
proved in the last minutes."""

from __future__ import annotations

import uuid
from datetime import timedelta

from fastapi import APIRouter, Response

from carevault.api.dependencies import DbSession, State
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.state import AppState
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentOwner, RecentOwner
from carevault.auth.permissions import SESSION_ONLY, declare
from carevault.webhooks import service
from carevault.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from carevault.webhooks.schemas import (
    WebhookAttemptRead,
    WebhookCreate,
    WebhookCreated,
    WebhookDeliveryRead,
    WebhookRead,
    WebhookUpdate,
)
from carevault.webhooks.targets import TargetPolicy

router = APIRouter(prefix="/webhooks", tags=["webhooks"], route_class=ApiRoute)

_ERRORS = error_responses(*AUTHENTICATED, 404)
_URL_ERRORS = error_responses(
    *AUTHENTICATED, 404, codes=("webhook_url_refused", "unknown_event_type")
)


def _policy(state: AppState) -> TargetPolicy:
    return TargetPolicy(state.settings.webhook_allowed_network_list)


def _read(endpoint: WebhookEndpoint) -> WebhookRead:
    return WebhookRead.model_validate(endpoint)


def _delivery(delivery: WebhookDelivery, attempts: list[WebhookAttempt]) -> WebhookDeliveryRead:
    read = WebhookDeliveryRead.model_validate(delivery)
    read.recent_attempts = [WebhookAttemptRead.model_validate(a) for a in attempts]
    if delivery.status != "pending":
        read.next_attempt_at = None  # the column holds the last lease; nothing is due
    return read


@router.post("", response_model=WebhookCreated, status_code=201, responses=_URL_ERRORS)
@declare(SESSION_ONLY)
async def create_webhook(
    body: WebhookCreate, owner: RecentOwner, db: DbSession, state: State, idempotency: Idempotency
) -> WebhookCreated:
    """Register an endpoint. The signing secret is in this answer only; deliveries start
    with the events after this moment."""
    endpoint, secret = await service.create_endpoint(
        db,
        owner.actor,
        _policy(state),
        url=body.url,
        event_types=body.event_types,
        description=body.description,
    )
    created = WebhookCreated(**_read(endpoint).model_dump(), secret=secret)
    return await idempotency.remember(201, created)


@router.get("", response_model=Page[WebhookRead], responses=error_responses(*AUTHENTICATED))
@declare(SESSION_ONLY)
async def list_webhooks(
    owner: CurrentOwner, db: DbSession, paging: PageParams
) -> Page[WebhookRead]:
    """The practice's endpoints, newest first. A disabled one names why (`disabled_reason`)."""
    endpoints, total = await service.list_endpoints(db, owner.workspace_id, paging)
    return Page.of([_read(e) for e in endpoints], total, paging)


@router.get("/{webhook_id}", response_model=WebhookRead, responses=_ERRORS)
@declare(SESSION_ONLY)
async def get_webhook(webhook_id: uuid.UUID, owner: CurrentOwner, db: DbSession) -> WebhookRead:
    return _read(await service.get_endpoint(db, owner.workspace_id, webhook_id))


@router.patch("/{webhook_id}", response_model=WebhookRead, responses=_URL_ERRORS)
@declare(SESSION_ONLY)
async def update_webhook(
    webhook_id: uuid.UUID, body: WebhookUpdate, owner: RecentOwner, db: DbSession, state: State
) -> WebhookRead:
    """Change the URL, the event types, the description, or enable/disable the endpoint.
    Enabling it resumes the deliveries that waited, each with a fresh retry window."""
    changes = body.model_dump(exclude_unset=True)
    if not changes:
        raise ApiError(422, "no_changes", "send url, event_types, description or enabled")
    for name, value in changes.items():
        if value is None:
            raise ApiError(422, "validation_error", f"{name} cannot be null")
    endpoint = await service.update_endpoint(db, owner.actor, _policy(state), webhook_id, changes)
    return _read(endpoint)


@router.delete("/{webhook_id}", status_code=204, responses=_ERRORS)
@declare(SESSION_ONLY)
async def delete_webhook(webhook_id: uuid.UUID, owner: RecentOwner, db: DbSession) -> Response:
    await service.delete_endpoint(db, owner.actor, webhook_id)
    return Response(status_code=204)


@router.post("/{webhook_id}/rotate-secret", response_model=WebhookCreated, responses=_ERRORS)
@declare(SESSION_ONLY)
async def rotate_webhook_secret(
    webhook_id: uuid.UUID, owner: RecentOwner, db: DbSession
) -> WebhookCreated:
    """A new signing secret, in this answer only; the old one stops signing at once."""
    endpoint, secret = await service.rotate_secret(db, owner.actor, webhook_id)
    return WebhookCreated(**_read(endpoint).model_dump(), secret=secret)


@router.get("/{webhook_id}/deliveries", response_model=Page[WebhookDeliveryRead], responses=_ERRORS)
@declare(SESSION_ONLY)
async def list_webhook_deliveries(
    webhook_id: uuid.UUID, owner: CurrentOwner, db: DbSession, paging: PageParams
) -> Page[WebhookDeliveryRead]:
    """The endpoint's deliveries, newest first, each with its latest attempts (status code,
    duration, error class; never what the receiver answered)."""
    rows, total = await service.list_deliveries(db, owner.workspace_id, webhook_id, paging)
    return Page.of([_delivery(d, a) for d, a in rows], total, paging)


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    response_model=WebhookDeliveryRead,
    status_code=202,
    responses=_ERRORS,
)
@declare(SESSION_ONLY)
async def redeliver_webhook(
    webhook_id: uuid.UUID, delivery_id: uuid.UUID, owner: CurrentOwner, db: DbSession, state: State
) -> WebhookDeliveryRead:
    """Send the delivery again (same event id) as soon as the worker next runs."""
    window = timedelta(hours=state.settings.webhook_retry_hours)
    delivery = await service.redeliver(db, owner.actor, webhook_id, delivery_id, window)
    return _delivery(delivery, [])
