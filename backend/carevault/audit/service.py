"""The audit trail: one event per access, written in the same transaction as the access with
a single INSERT (no event, no access) and no lock. Events are sealed afterwards, in order, by
carevault/audit/sealing.py; carevault/audit/verify.py checks the seals."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Insert, Table, Text, bindparam, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.pagination import Pagination
from carevault.audit.models import AuditEvent
from carevault.db.deadlines import COMMIT_DEADLINE_SETTING, commit_fence
from carevault.db.paging import fetch_page
from carevault.observability.request_id import current_request_id


@dataclass(frozen=True)
class Actor:
    """Who did it and from where; no PHI."""

    workspace_id: uuid.UUID | None
    user_id: uuid.UUID | None = None
    token_id: uuid.UUID | None = None
    ip_address: str | None = None


def as_uuids(values: Sequence[uuid.UUID | str]) -> list[uuid.UUID]:
    return [v if isinstance(v, uuid.UUID) else uuid.UUID(str(v)) for v in values]


async def record_unreadable(
    db: AsyncSession, actor: Actor, resource_type: str, ids: Sequence[uuid.UUID]
) -> None:
    """Rows a list left out because a protected value could not be opened (no PHI)."""
    if ids:
        await record(
            db,
            actor,
            "phi.decryption_failed",
            resource_type=resource_type,
            resource_ids=list(ids),
            details={"reason": "left out of a list: a protected value could not be opened"},
        )


async def record(
    db: AsyncSession,
    actor: Actor,
    action: str,
    *,
    resource_type: str | None = None,
    resource_ids: Sequence[uuid.UUID | str] | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Append an event in the caller's transaction: if it cannot be written, neither can
    the access it records. One INSERT, which also sets the transaction's commit fence (see
    carevault.db.deadlines); no chain work and no lock (sealing comes later). The request's
    id goes into `details`, which the seal covers."""
    request_id = current_request_id.get()
    if request_id is not None:
        details = {**details, "request_id": request_id} if details else {"request_id": request_id}
    event = {
        "workspace_id": actor.workspace_id,
        "occurred_at": datetime.now(UTC),
        "actor_user_id": actor.user_id,
        "actor_token_id": actor.token_id,
        "action": action,
        "resource_type": resource_type,
        "resource_ids": as_uuids(resource_ids) if resource_ids is not None else None,
        "ip_address": actor.ip_address,
        "details": details,
    }
    connection = await db.connection()
    fence = commit_fence(connection.sync_connection)  # type: ignore[arg-type]
    if fence is None:
        await connection.execute(_APPEND, event)
    else:
        await connection.execute(_APPEND_FENCED, {**event, "fence": fence})


def _append_statement(*, fenced: bool) -> Insert:
    """`INSERT INTO audit_events … SELECT <bound values>`, built once: a request pays for
    neither the ORM's unit of work nor building the statement. The fenced form also sets
    the commit fence, in the same round trip."""
    table: Table = AuditEvent.__table__  # type: ignore[assignment]
    values = select(*(bindparam(name, type_=table.c[name].type) for name in _EVENT_COLUMNS))
    if fenced:
        setting = func.set_config(COMMIT_DEADLINE_SETTING, bindparam("fence", type_=Text), True)
        values = values.select_from(select(setting.label("fence")).subquery("fence"))
    return insert(table).from_select(_EVENT_COLUMNS, values)


_EVENT_COLUMNS = (
    "workspace_id",
    "occurred_at",
    "actor_user_id",
    "actor_token_id",
    "action",
    "resource_type",
    "resource_ids",
    "ip_address",
    "details",
)
_APPEND = _append_statement(fenced=False)
_APPEND_FENCED = _append_statement(fenced=True)


@dataclass(frozen=True)
class EventFilters:
    user_id: uuid.UUID | None = None
    action: str | None = None
    resource_type: str | None = None
    resource_id: uuid.UUID | None = None
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
    statement = select(AuditEvent).where(*conditions).order_by(AuditEvent.id.desc())
    return await fetch_page(db, statement, paging)
