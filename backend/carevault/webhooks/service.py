"""The rules of webhook endpoints: registration (URL checked against the SSRF policy, a
secret generated and returned once), changes, deletion, secret rotation, the delivery log
and redelivery. Owners only; the router checks the credential."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.core.clock import utc_now
from carevault.core.errors import not_found
from carevault.core.fields import invalid
from carevault.db.paging import PageRequest, fetch_page
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter
from carevault.webhooks import signing
from carevault.webhooks.events import check_event_types, start_cursor
from carevault.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from carevault.webhooks.targets import TargetPolicy, TargetRefused, check_url

ENDPOINTS = WorkspaceRepository(WebhookEndpoint, noun="webhook endpoint")
DELIVERIES = WorkspaceRepository(WebhookDelivery, noun="webhook delivery")
RECENT_ATTEMPTS = 10
DISABLED_BY_OWNER = "disabled_by_owner"
PERSISTENT_FAILURE = "persistent_failure"


async def _checked_url(policy: TargetPolicy, url: str) -> str:
    try:
        await check_url(policy, url)
    except TargetRefused as refused:
        raise invalid("webhook_url_refused", str(refused), "url") from None
    return url


async def create_endpoint(
    db: AsyncSession,
    actor: audit.Actor,
    policy: TargetPolicy,
    *,
    url: str,
    event_types: list[str],
    description: str,
) -> tuple[WebhookEndpoint, str]:
    """The endpoint and its secret (returned this once). It receives the events that happen
    after it was registered."""
    assert actor.workspace_id is not None
    event_types = check_event_types(event_types)
    await _checked_url(policy, url)
    secret = signing.new_secret()
    endpoint = WebhookEndpoint(
        workspace_id=actor.workspace_id,
        url=url,
        description=description,
        event_types=event_types,
        secret=secret,
        enabled=True,
        consecutive_failures=0,
        cursor=(await start_cursor(db)).encode(),
    )
    db.add(endpoint)
    await db.flush()
    await db.refresh(endpoint)
    await audit.record(
        db,
        actor,
        "webhook.create",
        resource_type="webhook_endpoint",
        resource_ids=[endpoint.id],
        details={"event_types": endpoint.event_types},
    )
    return endpoint, secret


async def list_endpoints(
    db: AsyncSession, workspace_id: uuid.UUID, paging: PageRequest
) -> tuple[list[WebhookEndpoint], int]:
    statement = in_workspace(WebhookEndpoint, workspace_id).order_by(
        WebhookEndpoint.created_at.desc(), WebhookEndpoint.id
    )
    return await fetch_page(db, statement, paging)


async def get_endpoint(
    db: AsyncSession, workspace_id: uuid.UUID, endpoint_id: uuid.UUID, *, lock: bool = False
) -> WebhookEndpoint:
    return await ENDPOINTS.get(db, workspace_id, endpoint_id, lock=lock)


async def update_endpoint(
    db: AsyncSession,
    actor: audit.Actor,
    policy: TargetPolicy,
    endpoint_id: uuid.UUID,
    changes: dict[str, Any],
) -> WebhookEndpoint:
    assert actor.workspace_id is not None
    endpoint = await get_endpoint(db, actor.workspace_id, endpoint_id, lock=True)
    now = utc_now()
    if "url" in changes:
        endpoint.url = await _checked_url(policy, changes["url"])
    if "event_types" in changes:
        endpoint.event_types = check_event_types(changes["event_types"])
    if "description" in changes:
        endpoint.description = changes["description"]
    if "enabled" in changes and changes["enabled"] != endpoint.enabled:
        if changes["enabled"]:
            endpoint.enabled = True
            endpoint.disabled_at = None
            endpoint.disabled_reason = None
            endpoint.consecutive_failures = 0
            endpoint.failing_since = None
            await _resume_waiting(db, endpoint, now)
        else:
            endpoint.enabled = False
            endpoint.disabled_at = now
            endpoint.disabled_reason = DISABLED_BY_OWNER
    await db.flush()
    await db.refresh(endpoint)
    await audit.record(
        db,
        actor,
        "webhook.update",
        resource_type="webhook_endpoint",
        resource_ids=[endpoint.id],
        details={"changed": sorted(changes)},
    )
    return endpoint


async def _resume_waiting(db: AsyncSession, endpoint: WebhookEndpoint, now: datetime) -> None:
    """Deliveries that waited while the endpoint was disabled are due now, each with a
    fresh retry window (theirs may have run out while nobody could receive them)."""
    window: timedelta | None = await db.scalar(
        select(func.max(WebhookDelivery.give_up_at - WebhookDelivery.created_at)).where(
            workspace_filter(WebhookDelivery, endpoint.workspace_id),
            WebhookDelivery.endpoint_id == endpoint.id,
        )
    )
    await db.execute(
        update(WebhookDelivery)
        .where(
            workspace_filter(WebhookDelivery, endpoint.workspace_id),
            WebhookDelivery.endpoint_id == endpoint.id,
            WebhookDelivery.status == "pending",
        )
        .values(next_attempt_at=now, give_up_at=now + (window or timedelta(hours=24)))
    )


async def delete_endpoint(db: AsyncSession, actor: audit.Actor, endpoint_id: uuid.UUID) -> None:
    """Gone at once with its delivery log; nothing more is sent to it."""
    assert actor.workspace_id is not None
    endpoint = await get_endpoint(db, actor.workspace_id, endpoint_id, lock=True)
    await db.delete(endpoint)
    await db.flush()
    await audit.record(
        db, actor, "webhook.delete", resource_type="webhook_endpoint", resource_ids=[endpoint_id]
    )


async def rotate_secret(
    db: AsyncSession, actor: audit.Actor, endpoint_id: uuid.UUID
) -> tuple[WebhookEndpoint, str]:
    """A new secret, effective for the next attempt; the old one stops signing at once."""
    assert actor.workspace_id is not None
    endpoint = await get_endpoint(db, actor.workspace_id, endpoint_id, lock=True)
    secret = signing.new_secret()
    endpoint.secret = secret
    await db.flush()
    await db.refresh(endpoint)
    await audit.record(
        db,
        actor,
        "webhook.rotate_secret",
        resource_type="webhook_endpoint",
        resource_ids=[endpoint.id],
    )
    return endpoint, secret


async def list_deliveries(
    db: AsyncSession, workspace_id: uuid.UUID, endpoint_id: uuid.UUID, paging: PageRequest
) -> tuple[list[tuple[WebhookDelivery, list[WebhookAttempt]]], int]:
    """The endpoint's deliveries, newest first, each with its latest attempts."""
    await get_endpoint(db, workspace_id, endpoint_id)  # 404 for another practice's
    statement = (
        in_workspace(WebhookDelivery, workspace_id)
        .where(WebhookDelivery.endpoint_id == endpoint_id)
        .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
    )
    deliveries, total = await fetch_page(db, statement, paging)
    attempts: dict[uuid.UUID, list[WebhookAttempt]] = {d.id: [] for d in deliveries}
    if deliveries:
        ranked = (
            in_workspace(WebhookAttempt, workspace_id)
            .where(WebhookAttempt.delivery_id.in_(list(attempts)))
            .add_columns(
                func.row_number()
                .over(
                    partition_by=WebhookAttempt.delivery_id,
                    order_by=WebhookAttempt.attempted_at.desc(),
                )
                .label("rank")
            )
            .subquery()
        )
        rows = await db.execute(
            in_workspace(WebhookAttempt, workspace_id)
            .join(ranked, WebhookAttempt.id == ranked.c.id)
            .where(ranked.c.rank <= RECENT_ATTEMPTS)
            .order_by(WebhookAttempt.attempted_at.desc())
        )
        for attempt in rows.scalars():
            attempts[attempt.delivery_id].append(attempt)
    return [(d, attempts[d.id]) for d in deliveries], total


async def redeliver(
    db: AsyncSession,
    actor: audit.Actor,
    endpoint_id: uuid.UUID,
    delivery_id: uuid.UUID,
    retry_window: timedelta,
) -> WebhookDelivery:
    """Send the delivery again now (the same event id, so receivers can tell), with a
    fresh retry window; a delivery still pending is simply due at once."""
    assert actor.workspace_id is not None
    await get_endpoint(db, actor.workspace_id, endpoint_id)
    delivery = await DELIVERIES.get(db, actor.workspace_id, delivery_id, lock=True)
    if delivery.endpoint_id != endpoint_id:
        raise not_found("webhook delivery")
    now = utc_now()
    delivery.status = "pending"
    delivery.next_attempt_at = now
    delivery.give_up_at = now + retry_window
    await db.flush()
    await audit.record(
        db,
        actor,
        "webhook.redeliver",
        resource_type="webhook_delivery",
        resource_ids=[delivery.id],
        details={"endpoint_id": str(endpoint_id), "event_id": delivery.event_id},
    )
    return delivery
