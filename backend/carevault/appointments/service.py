"""The calendar. Every appointment is on a clinician's calendar (`clinician_id`, an active
user of the practice when booked) and may name a room. An appointment that is not cancelled
may not overlap another of the same clinician, the same client or the same room unless the
request allows it; the 409 names the conflicting appointments and what each shares. The
check and the write happen under a per-workspace lock, so two requests booking the same slot
at once cannot both pass it. A recurring booking is one appointment per occurrence, linked by
a `series_id`, checked and booked all at once.

Answers carry the clinician's display name and, for a credential that may read clients, the
client's names (PHI): read with the appointments in one statement, and audited as a
`client.names` event naming those clients. Location and notes are PHI; events name ids,
fields and times of the calendar range only."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment, AppointmentStatus
from carevault.appointments.schemas import (
    MAX_OCCURRENCES,
    AppointmentCreate,
    AppointmentSeriesCreate,
    AppointmentUpdate,
    AppointmentUpsert,
    Recurrence,
    check_duration,
)
from carevault.audit import service as audit
from carevault.auth.models import User
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients import service as client_service
from carevault.clients.models import Client
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, Invalid, not_found
from carevault.core.external import set_keys
from carevault.core.external import stored as stored_metadata
from carevault.core.fields import invalid
from carevault.db import external
from carevault.db.changes import ChangedSince, by_updated_at, where_changed
from carevault.db.readable import rows_skipping_unreadable
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter
from carevault.workspaces.time import practice_time_zone

RESOURCE_TYPE = "appointment"
MAX_CALENDAR_RANGE = timedelta(days=62)
_CANCELLED = AppointmentStatus.CANCELLED.value
_SCHEDULED = AppointmentStatus.SCHEDULED.value
# The audit event of the client names an answer carries (a disclosure of those clients).
CLIENT_NAMES_ACTION = "client.names"


@dataclass(frozen=True, slots=True)
class AppointmentView:
    """An appointment as answered: with its clinician's display name and, when the caller
    may read clients, its client's (first, last) name."""

    appointment: Appointment
    clinician_name: str
    client_names: tuple[str, str] | None


@dataclass(frozen=True, slots=True)
class SeriesView:
    series_id: uuid.UUID
    occurrences: list[AppointmentView]


async def _lock_schedule(db: AsyncSession, workspace_id: uuid.UUID) -> None:
    """Serialise the overlap check and the write that follows it, per workspace, until the
    transaction ends (the only per-workspace lock in CareVault: audit events take none)."""
    key = int.from_bytes(workspace_id.bytes[:8], "big", signed=True)
    await db.execute(select(func.pg_advisory_xact_lock(key)))


@dataclass(frozen=True, slots=True)
class Booking:
    """Whose calendar, which client and which room an overlap is checked for."""

    clinician_id: uuid.UUID
    client_id: uuid.UUID
    room: str | None


def _shared(row: Any, booking: Booking) -> list[str]:
    shares = []
    if row.clinician_id == booking.clinician_id:
        shares.append("clinician")
    if row.client_id == booking.client_id:
        shares.append("client")
    if booking.room is not None and (row.room or "").lower() == booking.room.lower():
        shares.append("room")
    return shares


def _overlap_message(shares: set[str], *, series: bool = False) -> str:
    what = [
        phrase
        for key, phrase in (
            ("clinician", "of the same clinician"),
            ("client", "of the same client"),
            ("room", "in the same room"),
        )
        if key in shares
    ]
    subject = "occurrences of the series overlap" if series else "the time overlaps"
    return (
        f"{subject} other appointments {' and '.join(what)}; send allow_overlap to book it anyway"
    )


async def _refuse_overlap(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    booking: Booking,
    slots: Sequence[tuple[datetime, datetime]],
    *,
    excluding: uuid.UUID | None = None,
) -> None:
    """409 `appointment_conflict` naming the appointments that are not cancelled, share any
    time with one of `slots` ([starts_at, ends_at) each) and have the booking's clinician,
    client or room. Back-to-back appointments do not overlap. With several slots (a series)
    each conflict names the occurrence it clashes with."""
    await _lock_schedule(db, workspace_id)
    same = [
        Appointment.clinician_id == booking.clinician_id,
        Appointment.client_id == booking.client_id,
    ]
    if booking.room is not None:
        same.append(func.lower(Appointment.room) == booking.room.lower())
    statement = (
        # chart-wide: an overlap is one whoever's client it is; the 409 names ids only
        in_workspace(Appointment, workspace_id)
        .where(
            Appointment.status != _CANCELLED,
            or_(*(and_(Appointment.starts_at < e, Appointment.ends_at > s) for s, e in slots)),
            or_(*same),
        )
        .with_only_columns(
            Appointment.id,
            Appointment.starts_at,
            Appointment.ends_at,
            Appointment.clinician_id,
            Appointment.client_id,
            Appointment.room,
        )
        .order_by(Appointment.starts_at, Appointment.id)
    )
    if excluding is not None:
        statement = statement.where(Appointment.id != excluding)
    rows = [row for row in (await db.execute(statement)).all() if _shared(row, booking)]
    if not rows:
        return
    series = len(slots) > 1
    conflicts: list[dict[str, Any]] = []
    shares: set[str] = set()
    for start, end in slots:
        for row in rows:
            if row.starts_at < end and row.ends_at > start:
                shared = _shared(row, booking)
                shares.update(shared)
                conflict: dict[str, Any] = {"id": str(row.id), "shares": shared}
                if series:
                    conflict["occurrence_starts_at"] = start.isoformat()
                conflicts.append(conflict)
    raise Conflict(
        "appointment_conflict",
        _overlap_message(shares, series=series),
        details={
            "conflicting_ids": list(dict.fromkeys(c["id"] for c in conflicts)),
            "conflicts": conflicts,
        },
    )


_appointments = WorkspaceRepository(
    Appointment, noun="appointment", condition=access.chart_condition(Appointment)
)

_CLINICIAN_NAME = func.coalesce(func.nullif(User.display_name, ""), User.email).label(
    "clinician_name"
)


async def _check_clinician(db: AsyncSession, principal: Principal, clinician_id: uuid.UUID) -> None:
    """422 `invalid_clinician` unless `clinician_id` is an active user of the workspace (the
    same answer whether the id is unknown, of another practice or disabled)."""
    if principal.service_account is None and clinician_id == principal.user.id:
        return  # the caller: an active user of the workspace, or the request was refused
    found = (
        await db.execute(
            in_workspace(User, principal.workspace_id)
            .where(User.id == clinician_id)
            .with_only_columns(User.disabled_at)
        )
    ).one_or_none()
    if found is None or found.disabled_at is not None:
        raise invalid(
            "invalid_clinician",
            "the clinician must be an active user of your practice",
            "clinician_id",
        )


def _calendar(principal: Principal) -> Select[Any]:
    """Appointments of the caller's workspace whose charts the caller sees (under `care_team`
    chart access, those of their care teams' clients, whoever's calendar they are on), with
    their clinician's display name and, when the caller may read clients, their client's
    names: one statement, names decrypted with the rows (no query per appointment). Every
    read of appointments goes through it."""
    workspace_id = principal.workspace_id
    # Only the appointments of charts the caller sees (carevault.clients.access).
    statement = access.charted(
        in_workspace(Appointment, workspace_id)
        .join(User, and_(User.id == Appointment.clinician_id, workspace_filter(User, workspace_id)))
        .add_columns(_CLINICIAN_NAME),
        principal,
        Appointment,
    )
    if principal.may_read("clients"):
        statement = statement.join(
            Client,
            # chart-wide: each appointment's own client; the appointments are charted above
            and_(Client.id == Appointment.client_id, workspace_filter(Client, workspace_id)),
        ).add_columns(Client.first_name, Client.last_name)
    return statement


async def _views(
    db: AsyncSession, principal: Principal, statement: Select[Any]
) -> tuple[list[AppointmentView], list[uuid.UUID]]:
    """(the rows of a `_calendar` statement as views, ids of rows that could not be opened)."""
    rows, unreadable = await rows_skipping_unreadable(db, statement, Appointment.id)
    return [_view(principal, row) for row in rows], unreadable


def _view(principal: Principal, row: Any) -> AppointmentView:
    names = (row[2], row[3]) if principal.may_read("clients") else None
    return AppointmentView(row[0], row[1], names)


async def _record_names(
    db: AsyncSession, principal: Principal, views: Sequence[AppointmentView], via: str
) -> None:
    """The clients whose names the answer carries: a disclosure of each (names only)."""
    client_ids = list(
        dict.fromkeys(view.appointment.client_id for view in views if view.client_names)
    )
    if client_ids:
        await audit.record(
            db,
            principal.actor,
            CLIENT_NAMES_ACTION,
            resource_type=client_service.RESOURCE_TYPE,
            resource_ids=client_ids,
            details={"via": via, "fields": ["first_name", "last_name"]},
        )


async def _answer(
    db: AsyncSession, principal: Principal, ids: Sequence[uuid.UUID], via: str
) -> list[AppointmentView]:
    """Views of appointments just written (by start), their names disclosure audited."""
    views, _ = await _views(
        db,
        principal,
        _calendar(principal)
        .where(Appointment.id.in_(ids))
        .order_by(Appointment.starts_at, Appointment.id),
    )
    await _record_names(db, principal, views, via)
    return views


async def create_appointment(
    db: AsyncSession, principal: Principal, body: AppointmentCreate
) -> AppointmentView:
    workspace_id = principal.workspace_id
    clinician_id = body.clinician_id or principal.person_id
    await _check_clinician(db, principal, clinician_id)
    await client_service.ensure_bookable(db, workspace_id, body.client_id, principal=principal)
    if body.status != _CANCELLED and not body.allow_overlap:
        booking = Booking(clinician_id, body.client_id, body.room)
        await _refuse_overlap(db, workspace_id, booking, [(body.starts_at, body.ends_at)])
    values = await external.columns(
        db,
        Appointment,
        RESOURCE_TYPE,
        workspace_id,
        body.model_dump(exclude={"allow_overlap", "clinician_id"}),
    )
    appointment = Appointment(workspace_id=workspace_id, **values, clinician_id=clinician_id)
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
    (view,) = await _answer(db, principal, [appointment.id], "appointment.create")
    return view


def occurrences(
    starts_at: datetime, ends_at: datetime, recurrence: Recurrence, time_zone: str
) -> list[tuple[datetime, datetime]]:
    """[starts_at, ends_at) of each occurrence: the same local wall-clock time in
    `time_zone` every `every_weeks` weeks, the duration kept. 422 for a rule that gives no
    occurrence or more than MAX_OCCURRENCES."""
    zone = ZoneInfo(time_zone)
    duration = ends_at - starts_at
    step = timedelta(weeks=recurrence.every_weeks)
    slots: list[tuple[datetime, datetime]] = []
    while recurrence.count is None or len(slots) < recurrence.count:
        try:
            wall = starts_at.astimezone(zone).replace(tzinfo=None) + step * len(slots)
            start = wall.replace(tzinfo=zone).astimezone(UTC)
            end = start + duration
        except OverflowError:
            raise invalid(
                "validation_error", "the series falls outside the years 1 to 9999", "recurrence"
            ) from None
        if recurrence.until is not None and wall.date() > recurrence.until:
            break
        if len(slots) == MAX_OCCURRENCES:
            raise invalid(
                "validation_error",
                f"a series has at most {MAX_OCCURRENCES} occurrences",
                "recurrence.until",
            )
        slots.append((start, end))
    if not slots:
        raise invalid(
            "validation_error", "until is before the first occurrence", "recurrence.until"
        )
    return slots


async def create_series(
    db: AsyncSession, principal: Principal, body: AppointmentSeriesCreate
) -> SeriesView:
    """Book every occurrence, or none: an overlap of any occurrence (unless allowed) is one
    409 naming each conflict and the occurrence it clashes with."""
    workspace_id = principal.workspace_id
    if body.external_id is not None:
        raise invalid(
            "validation_error",
            "an external_id names one appointment: set it on each occurrence of the series",
            "external_id",
        )
    clinician_id = body.clinician_id or principal.person_id
    await _check_clinician(db, principal, clinician_id)
    await client_service.ensure_bookable(db, workspace_id, body.client_id, principal=principal)
    time_zone = await practice_time_zone(db, workspace_id)
    slots = occurrences(body.starts_at, body.ends_at, body.recurrence, time_zone)
    if body.status != _CANCELLED and not body.allow_overlap:
        booking = Booking(clinician_id, body.client_id, body.room)
        await _refuse_overlap(db, workspace_id, booking, slots)
    series_id = uuid.uuid4()
    fields = body.model_dump(
        exclude={
            "allow_overlap",
            "clinician_id",
            "recurrence",
            "starts_at",
            "ends_at",
            "external_id",
            "metadata",
        }
    )
    fields["metadata_json"] = stored_metadata(body.metadata)
    created = [
        Appointment(
            workspace_id=workspace_id,
            **fields,
            clinician_id=clinician_id,
            series_id=series_id,
            starts_at=start,
            ends_at=end,
        )
        for start, end in slots
    ]
    db.add_all(created)
    await db.flush()
    ids = [appointment.id for appointment in created]
    await audit.record(
        db,
        principal.actor,
        "appointment.create",
        resource_type=RESOURCE_TYPE,
        resource_ids=ids,
        details={
            "client_id": str(body.client_id),
            "allow_overlap": body.allow_overlap,
            "series_id": str(series_id),
            "every_weeks": body.recurrence.every_weeks,
            "count": len(ids),
        },
    )
    return SeriesView(series_id, await _answer(db, principal, ids, "appointment.create"))


async def read_appointment(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID
) -> AppointmentView:
    # A value that cannot be opened fails the read (DecryptionError), as any chart read.
    row = (
        await db.execute(_calendar(principal).where(Appointment.id == appointment_id))
    ).one_or_none()
    if row is None:
        raise not_found("appointment")
    view = _view(principal, row)
    flag = await access.glass_flag(db, principal, [view.appointment.client_id])
    await audit.record(
        db,
        principal.actor,
        "appointment.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=[appointment_id],
        details=flag or None,
    )
    await _record_names(db, principal, [view], "appointment.read")
    return view


async def list_changed_appointments(
    db: AsyncSession,
    principal: Principal,
    changes: ChangedSince,
    limit: int,
    *,
    clinician_ids: Sequence[uuid.UUID] = (),
    client_id: uuid.UUID | None = None,
    external_id: str | None = None,
) -> list[AppointmentView]:
    """The calendar for a sync: appointments changed since `changes.updated_since` (any
    date), at most `limit`, by (updated_at, id) with `changes.by_updated_at`, else by start.
    Audited as the calendar is."""
    statement = where_changed(_calendar(principal), Appointment, changes)
    filters: dict[str, Any] = {"sync": True}
    if changes.updated_since is not None:
        filters["updated_since"] = changes.updated_since.isoformat()
    if clinician_ids:
        statement = statement.where(Appointment.clinician_id.in_(clinician_ids))
        filters["clinician_ids"] = sorted(str(i) for i in set(clinician_ids))
    if client_id is not None:
        statement = statement.where(Appointment.client_id == client_id)
        filters["client_id"] = str(client_id)
    if external_id is not None:
        candidates = external.candidates(RESOURCE_TYPE, principal.workspace_id, external_id)
        statement = statement.where(Appointment.external_id_bidx.in_(candidates))
        filters["external_id"] = True  # whether filtered; the id itself stays out of audit
    if changes.by_updated_at:
        statement = by_updated_at(statement, Appointment)
    else:
        statement = statement.order_by(Appointment.starts_at, Appointment.ends_at, Appointment.id)
    views, unreadable = await _views(db, principal, statement.limit(limit))
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    await audit.record(
        db,
        principal.actor,
        "appointment.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=[view.appointment.id for view in views],
        details={"count": len(views), **filters}
        | await access.glass_flag(db, principal, [view.appointment.client_id for view in views]),
    )
    await _record_names(db, principal, views, "appointment.list")
    return views


async def read_appointments(
    db: AsyncSession, principal: Principal, ids: list[uuid.UUID]
) -> list[AppointmentView]:
    """The appointments among `ids` the caller sees, in the order of `ids`: one
    `appointment.read` event names them all (another the clients whose names they carry)."""
    views, unreadable = await _views(
        db, principal, _calendar(principal).where(Appointment.id.in_(ids))
    )
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    order = {appointment_id: position for position, appointment_id in enumerate(ids)}
    views.sort(key=lambda view: order[view.appointment.id])
    found = [view.appointment.id for view in views]
    await audit.record(
        db,
        principal.actor,
        "appointment.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=found,
        details={"batch": True, "count": len(found)}
        | await access.glass_flag(db, principal, [view.appointment.client_id for view in views]),
    )
    await _record_names(db, principal, views, "appointment.read")
    return views


async def list_appointments(
    db: AsyncSession,
    principal: Principal,
    start: datetime,
    end: datetime,
    *,
    clinician_ids: Sequence[uuid.UUID] = (),
    client_id: uuid.UUID | None = None,
    external_id: str | None = None,
) -> list[AppointmentView]:
    """Every appointment sharing time with [start, end), cancelled ones included, by start;
    only those of `clinician_ids`, of `client_id` and with `external_id` when given. One
    audit event names them all, another the clients whose names they carry."""
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
    statement = _calendar(principal).where(Appointment.starts_at < end, Appointment.ends_at > start)
    filters: dict[str, Any] = {}
    if clinician_ids:
        statement = statement.where(Appointment.clinician_id.in_(clinician_ids))
        filters["clinician_ids"] = sorted(str(i) for i in set(clinician_ids))
    if client_id is not None:
        statement = statement.where(Appointment.client_id == client_id)
        filters["client_id"] = str(client_id)
    if external_id is not None:
        candidates = external.candidates(RESOURCE_TYPE, principal.workspace_id, external_id)
        statement = statement.where(Appointment.external_id_bidx.in_(candidates))
        filters["external_id"] = True  # whether filtered; the id itself stays out of audit
    statement = statement.order_by(Appointment.starts_at, Appointment.ends_at, Appointment.id)
    views, unreadable = await _views(db, principal, statement)
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    await audit.record(
        db,
        principal.actor,
        "appointment.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=[view.appointment.id for view in views],
        details={
            "start": start.isoformat(),
            "end": end.isoformat(),
            "count": len(views),
            **filters,
        }
        | await access.glass_flag(db, principal, [view.appointment.client_id for view in views]),
    )
    await _record_names(db, principal, views, "appointment.list")
    return views


async def update_appointment(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID, body: AppointmentUpdate
) -> AppointmentView:
    """Change what was sent. Moving an appointment, giving it to another clinician or room,
    or bringing a cancelled one back is checked for overlaps like a new booking."""
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
    clinician_id = changes.get("clinician_id", appointment.clinician_id)
    room = changes.get("room", appointment.room)
    if "starts_at" in changes or "ends_at" in changes:
        problem = check_duration(starts_at, ends_at)
        if problem:
            sent = [field for field in ("starts_at", "ends_at") if field in changes]
            raise invalid("validation_error", problem, *sent)
    if clinician_id != appointment.clinician_id:
        await _check_clinician(db, principal, clinician_id)
    moved = (
        starts_at != appointment.starts_at
        or ends_at != appointment.ends_at
        or clinician_id != appointment.clinician_id
        or (room is not None and (appointment.room or "").lower() != room.lower())
    )
    revived = appointment.status == _CANCELLED and status != _CANCELLED
    if status != _CANCELLED and (moved or revived) and not body.allow_overlap:
        booking = Booking(clinician_id, appointment.client_id, room)
        await _refuse_overlap(
            db, workspace_id, booking, [(starts_at, ends_at)], excluding=appointment.id
        )
    written = await external.columns(
        db, Appointment, RESOURCE_TYPE, workspace_id, changes, record=appointment
    )
    for field, value in written.items():
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
    (view,) = await _answer(db, principal, [appointment.id], "appointment.update")
    return view


async def upsert_appointment(
    db: AsyncSession, principal: Principal, external_id: str, body: AppointmentUpsert
) -> tuple[AppointmentView, bool]:
    """The appointment with this external id changed as `body` says, or a new one with it:
    (the appointment, whether it was created). Concurrent upserts of one external id are
    serialised (carevault.db.external.lock), so they never book twice."""
    workspace_id = principal.workspace_id
    await external.lock(db, RESOURCE_TYPE, workspace_id, external_id)
    existing = await external.find(db, Appointment, RESOURCE_TYPE, workspace_id, external_id)
    sent = body.model_dump(exclude_unset=True)
    if existing is None:
        metadata = set_keys(sent.pop("metadata", None))
        create = AppointmentCreate.model_validate(
            sent | {"external_id": external_id, "metadata": metadata}
        )
        return await create_appointment(db, principal, create), True
    client_id = await db.scalar(
        access.charted(
            in_workspace(Appointment, workspace_id)
            .where(Appointment.id == existing)
            .with_only_columns(Appointment.client_id),
            principal,
            Appointment,
        )
    )
    if client_id is None:
        raise not_found("appointment")
    if client_id != body.client_id:
        raise invalid("validation_error", "an appointment's client cannot change", "client_id")
    sent.pop("client_id")
    if sent.get("clinician_id") is None:
        sent.pop("clinician_id", None)
    update = AppointmentUpdate.model_validate(sent)
    return await update_appointment(db, principal, existing, update), False


async def find_external(
    db: AsyncSession, principal: Principal, external_id: str
) -> uuid.UUID | None:
    """The id of the practice's appointment with this external id (reads no PHI)."""
    return await external.find(db, Appointment, RESOURCE_TYPE, principal.workspace_id, external_id)


async def cancel_following(
    db: AsyncSession, principal: Principal, appointment_id: uuid.UUID
) -> list[uuid.UUID]:
    """Cancel this occurrence and every later one of its series that is still scheduled
    (attended and no-show ones keep their status); the ids cancelled, by start. 422
    `not_in_series` for a single appointment."""
    workspace_id = principal.workspace_id
    appointment = await _appointments.get(
        db, workspace_id, appointment_id, lock=True, values=access.chart_values(principal)
    )
    if appointment.series_id is None:
        raise Invalid("not_in_series", "the appointment is not part of a recurring series")
    cancelled = (
        await db.execute(
            access.charted(
                update(Appointment).where(
                    workspace_filter(Appointment, workspace_id),
                    Appointment.series_id == appointment.series_id,
                    Appointment.starts_at >= appointment.starts_at,
                    Appointment.status == _SCHEDULED,
                ),
                principal,
                Appointment,
            )
            .values(status=_CANCELLED, updated_at=utc_now())
            .returning(Appointment.id, Appointment.starts_at)
            .execution_options(synchronize_session=False)
        )
    ).all()
    ids = [row.id for row in sorted(cancelled, key=lambda row: (row.starts_at, row.id))]
    if ids:
        await audit.record(
            db,
            principal.actor,
            "appointment.update",
            resource_type=RESOURCE_TYPE,
            resource_ids=ids,
            details={
                "fields": ["status"],
                "series_id": str(appointment.series_id),
                "cancel_following": True,
            },
        )
    return ids


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
