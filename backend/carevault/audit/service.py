"""The audit trail: one event per access, written in the same transaction as the access,
chained per workspace by SHA-256 so a row altered or removed behind our back is found."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.pagination import Pagination
from carevault.audit.models import AuditEvent

GENESIS = b"\x00" * 32


@dataclass(frozen=True)
class Actor:
    """Who did it and from where; no PHI."""

    workspace_id: uuid.UUID | None
    user_id: uuid.UUID | None = None
    token_id: uuid.UUID | None = None
    ip_address: str | None = None


def _lock_key(workspace_id: uuid.UUID | None) -> int:
    return 0 if workspace_id is None else int.from_bytes(workspace_id.bytes[:8], "big", signed=True)


def event_digest(event: AuditEvent) -> bytes:
    """SHA-256 over the previous hash and every recorded field, in a canonical form."""
    canonical = {
        "prev_hash": (event.prev_hash or GENESIS).hex(),
        "workspace_id": str(event.workspace_id) if event.workspace_id else None,
        "occurred_at": event.occurred_at.astimezone(UTC).isoformat(),
        "actor_user_id": str(event.actor_user_id) if event.actor_user_id else None,
        "actor_token_id": str(event.actor_token_id) if event.actor_token_id else None,
        "action": event.action,
        "resource_type": event.resource_type,
        "resource_ids": event.resource_ids,
        "ip_address": str(event.ip_address) if event.ip_address else None,
        "details": event.details,
    }
    encoded = json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).digest()


async def lock_chain(db: AsyncSession, workspace_id: uuid.UUID | None) -> None:
    """Take the workspace's audit-chain lock now; held until the transaction ends. Writes
    that must be serialised per workspace take this same lock, so there is one lock order."""
    await db.execute(select(func.pg_advisory_xact_lock(_lock_key(workspace_id))))


async def record(
    db: AsyncSession,
    actor: Actor,
    action: str,
    *,
    resource_type: str | None = None,
    resource_ids: Sequence[uuid.UUID | str] | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append an event in the caller's transaction: if it cannot be written, neither can
    the access it records. A per-workspace advisory lock keeps the chain linear."""
    await lock_chain(db, actor.workspace_id)
    previous = await db.scalar(
        select(AuditEvent.hash)
        .where(
            AuditEvent.workspace_id == actor.workspace_id
            if actor.workspace_id
            else AuditEvent.workspace_id.is_(None)
        )
        .order_by(AuditEvent.id.desc())
        .limit(1)
    )
    event = AuditEvent(
        workspace_id=actor.workspace_id,
        occurred_at=datetime.now(UTC),
        actor_user_id=actor.user_id,
        actor_token_id=actor.token_id,
        action=action,
        resource_type=resource_type,
        resource_ids=[str(i) for i in resource_ids] if resource_ids is not None else None,
        ip_address=actor.ip_address,
        details=details,
        prev_hash=previous or GENESIS,
    )
    event.hash = event_digest(event)
    db.add(event)
    await db.flush()
    return event


@dataclass(frozen=True)
class EventFilters:
    user_id: uuid.UUID | None = None
    action: str | None = None
    resource_type: str | None = None
    resource_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None


async def list_events(
    db: AsyncSession, workspace_id: uuid.UUID, filters: EventFilters, paging: Pagination
) -> tuple[list[AuditEvent], int]:
    conditions = [AuditEvent.workspace_id == workspace_id]
    if filters.user_id:
        conditions.append(AuditEvent.actor_user_id == filters.user_id)
    if filters.action:
        conditions.append(AuditEvent.action == filters.action)
    if filters.resource_type:
        conditions.append(AuditEvent.resource_type == filters.resource_type)
    if filters.resource_id:
        conditions.append(AuditEvent.resource_ids.contains([filters.resource_id]))
    if filters.since:
        conditions.append(AuditEvent.occurred_at >= filters.since)
    if filters.until:
        conditions.append(AuditEvent.occurred_at < filters.until)
    total = await db.scalar(select(func.count()).select_from(AuditEvent).where(*conditions))
    events = await db.scalars(
        select(AuditEvent)
        .where(*conditions)
        .order_by(AuditEvent.id.desc())
        .offset(paging.offset)
        .limit(paging.page_size)
    )
    return list(events), int(total or 0)


@dataclass(frozen=True)
class BrokenLink:
    workspace_id: uuid.UUID | None
    event_id: int
    reason: str


async def verify_chain(db: AsyncSession) -> tuple[int, list[BrokenLink]]:
    """Walk every workspace's chain; return how many events were checked and the first
    broken link of each chain."""
    checked = 0
    broken: list[BrokenLink] = []
    last_hash: dict[uuid.UUID | None, bytes] = {}
    failed: set[uuid.UUID | None] = set()
    result = await db.stream_scalars(select(AuditEvent).order_by(AuditEvent.id))
    async for event in result:
        checked += 1
        chain = event.workspace_id
        if chain in failed:
            continue
        expected_prev = last_hash.get(chain, GENESIS)
        if event.prev_hash != expected_prev:
            reason = "previous event missing or altered (prev_hash does not match)"
        elif event.hash != event_digest(event):
            reason = "event altered (hash does not match its content)"
        else:
            last_hash[chain] = event.hash
            continue
        broken.append(BrokenLink(chain, event.id, reason))
        failed.add(chain)
    return checked, broken
