"""The calendar. Two appointments of a workspace that are not cancelled may not overlap
unless the request allows it; the check and the write happen under a per-workspace lock,
so two requests booking the same slot at once cannot both pass it. Location and notes are
PHI; events name ids, fields and times of the calendar range only."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment, AppointmentStatus
from carevault.appointments.schemas import (
    AppointmentCreate,
    AppointmentUpdate,
    check_duration,
)
from carevault.audit import service as audit
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients import service as client_service
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, Invalid, not_found
from carevault.core.fields import invalid
from carevault.db.readable import scalars_skipping_unreadable
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter

RESOURCE_TYPE = "appointment"
MAX_CALENDAR_RANGE = timedelta(days=62)
_CANCELLED = AppointmentStatus.CANCELLED.value


async def _lock_schedule(db: AsyncSession, workspace_id: uuid.UUID) -> None:
    """Serialise the overlap check and the write that follows it, per workspace, until the
    transaction ends (the only per-workspace lock in CareVault: audit events take none)."""
    key = int.from_bytes(workspace_id.bytes[:8], "big", signed=True)
    await db.execute(select(func.pg_advisory_xact_lock(key)))


async def _refuse_overlap(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    starts_at: datetime,
    ends_at: datetime,
    *,
    excluding: uuid.UUID | None = None,
) -> None:
    """409 `appointment_conflict` naming the appointments that are not cancelled and share
    any time with [starts_at, ends_at). Back-to-back appointments do not overlap."""
    await _lock_schedule(db, workspace_id)
    statement = (
        # chart-wide: an overlap is one whoever's client it is; the 409 names ids only
        in_workspace(Appointment, workspace_id)
        .where(
            Appointment.status != _CANCELLED,
            Appointment.starts_at < ends_at,
            Appointment.ends_at > starts_at,
        )
        .with_only_columns(Appointment.id)
        .order_by(Appointment.starts_at, Appointment.id)
    )
    if excluding is not None:
        statement = statement.where(Appointment.id != excluding)
    conflicting: Sequence[uuid.UUID] = list(await db.scalars(statement))
    if conflicting:
        raise Conflict(
            "appointment_conflict",
            "the time overlaps other appointments; send allow_overlap to book it anyway",
            details={"conflicting_ids": [str(i) for i in conflicting]},
        )


_appointments = WorkspaceRepository(
    Appointment, noun="appointment", condition=access.chart_condition(Appointment)
)


async def create_appointment(
    db: AsyncSession, principal: Principal, body: AppointmentCreate
) -> Appointment:
    workspace_id = principal.workspace_id
    await client_service.ensure_bookable(db, workspace_id, body.client_id, principal=principal)
    if body.status != _CANCELLED and not body.allow_overlap:
        await _refuse_overlap(db, workspace_id, body.starts_at, body.ends_at)
    appointment = Appointment(
        workspace_id=workspace_id, **body.model_dump(exclude={"allow_overlap"})
    )
    db.add(appointment)
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "appointment.create",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment.id],
        details={"client_id": str(appointment.client_id), "allow_overlap": body.allow_overlap},
    )
    return appointment


async def read_appointment(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID
) -> Appointment:
    appointment = await _appointments.get(
        db, principal.workspace_id, appointment_id, values=access.chart_values(principal)
    )
    flag = await access.glass_flag(db, principal, [appointment.client_id])
    await audit.record(
        db,
        principal.actor,
        "appointment.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment.id],
        details=flag or None,
    )
    return appointment


async def list_appointments(
    db: AsyncSession, principal: Principal, start: datetime, end: datetime
) -> list[Appointment]:
    """Every appointment sharing time with [start, end), cancelled ones included, by start.
    One audit event names them all."""
    if end <= start:
        raise invalid("validation_error", "end must be after start", "end", location="query")
    if end - start > MAX_CALENDAR_RANGE:
        raise invalid(
            "validation_error",
            "the range spans at most 62 days",
            "start",
            "end",
            location="query",
        )
    appointments, unreadable = await scalars_skipping_unreadable(
        db,
        access.charted(
            in_workspace(Appointment, principal.workspace_id)
            .where(Appointment.starts_at < end, Appointment.ends_at > start)
            .order_by(Appointment.starts_at, Appointment.ends_at, Appointment.id),
            principal,
            Appointment,
        ),
        Appointment.id,
    )
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    await audit.record(
        db,
        principal.actor,
        "appointment.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment.id for appointment in appointments],
        details={"start": start.isoformat(), "end": end.isoformat(), "count": len(appointments)}
        | await access.glass_flag(db, principal, [a.client_id for a in appointments]),
    )
    return appointments


async def update_appointment(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID, body: AppointmentUpdate
) -> Appointment:
    """Change what was sent. Moving an appointment, or bringing a cancelled one back, is
    checked for overlaps like a new booking."""
    changes = body.changes()
    if not changes:
        raise Invalid("no_changes", "send at least one field to change")
    workspace_id = principal.workspace_id
    appointment = await _appointments.get(
        db, workspace_id, appointment_id, lock=True, values=access.chart_values(principal)
    )
    starts_at = changes.get("starts_at", appointment.starts_at)
    ends_at = changes.get("ends_at", appointment.ends_at)
    status = changes.get("status", appointment.status)
    if "starts_at" in changes or "ends_at" in changes:
        problem = check_duration(starts_at, ends_at)
        if problem:
            sent = [field for field in ("starts_at", "ends_at") if field in changes]
            raise invalid("validation_error", problem, *sent)
    moved = starts_at != appointment.starts_at or ends_at != appointment.ends_at
    revived = appointment.status == _CANCELLED and status != _CANCELLED
    if status != _CANCELLED and (moved or revived) and not body.allow_overlap:
        await _refuse_overlap(db, workspace_id, starts_at, ends_at, excluding=appointment.id)
    for field, value in changes.items():
        setattr(appointment, field, value)
    appointment.updated_at = utc_now()
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "appointment.update",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment.id],
        details={"fields": sorted(changes), "allow_overlap": body.allow_overlap},
    )
    return appointment


async def delete_appointment(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID
) -> None:
    """Remove the appointment; a session note tied to it keeps its content, untied."""
    client_id = await db.scalar(
        access.charted(
            delete(Appointment).where(
                workspace_filter(Appointment, principal.workspace_id),
                Appointment.id == appointment_id,
            ),
            principal,
            Appointment,
        )
        .returning(Appointment.client_id)
        .execution_options(synchronize_session=False)
    )
    if client_id is None:
        raise not_found("appointment")
    await audit.record(
        db,
        principal.actor,
        "appointment.delete",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment_id],
        details={"client_id": str(client_id)},
    )
