from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Response

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.strict_params import ApiRoute
from carevault.appointments import service
from carevault.appointments.schemas import (
    APPOINTMENT_EXAMPLE,
    AppointmentClient,
    AppointmentClinician,
    AppointmentCreate,
    AppointmentRead,
    AppointmentSeriesCreate,
    AppointmentSeriesRead,
    AppointmentUpdate,
    CancelledOccurrences,
    UtcDatetime,
)
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import BULK_COST, changes, declare, reads

router = APIRouter(prefix="/appointments", tags=["appointments"], route_class=ApiRoute)

# Answers carry the client's names for a credential that may read clients (a token with
# `clients:read`); `client` is null for any other.
READS = reads("appointments", with_readable=("clients",))
CHANGES = changes("appointments", with_readable=("clients",))
# A series books up to its recurrence's limit of appointments in one request.
CHANGES_MANY = changes("appointments", with_readable=("clients",), cost=BULK_COST)
MAX_CLINICIAN_FILTER = 50


def _answer(view: service.AppointmentView) -> AppointmentRead:
    appointment = view.appointment
    client = None
    if view.client_names is not None:
        first_name, last_name = view.client_names
        client = AppointmentClient(
            id=appointment.client_id, first_name=first_name, last_name=last_name
        )
    return AppointmentRead(
        id=appointment.id,
        client_id=appointment.client_id,
        clinician_id=appointment.clinician_id,
        series_id=appointment.series_id,
        starts_at=appointment.starts_at,
        ends_at=appointment.ends_at,
        status=appointment.status,
        room=appointment.room,
        location=appointment.location,
        notes=appointment.notes,
        client=client,
        clinician=AppointmentClinician(
            id=appointment.clinician_id, display_name=view.clinician_name
        ),
        created_at=appointment.created_at,
        updated_at=appointment.updated_at,
    )


@router.post(
    "",
    response_model=AppointmentRead,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=(
            "appointment_conflict",
            "client_archived",
            "invalid_clinician",
            "person_required",
        ),
    ),
)
@declare(CHANGES)
async def create_appointment(
    body: AppointmentCreate, principal: CurrentPrincipal, db: DbSession, idempotency: Idempotency
) -> AppointmentRead:
    """Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one) on a clinician's calendar: `clinician_id`, an active user of your
    workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
    appointment that is not cancelled and has the same clinician, the same client or the
    same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
    what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true."""
    view = await service.create_appointment(db, principal, body)
    return await idempotency.remember(201, _answer(view))


@router.post(
    "/series",
    response_model=AppointmentSeriesRead,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=(
            "appointment_conflict",
            "client_archived",
            "invalid_clinician",
            "person_required",
        ),
    ),
    summary="Book a recurring appointment: one appointment per occurrence, all or none",
)
@declare(CHANGES_MANY)
async def create_series(
    body: AppointmentSeriesCreate,
    principal: CurrentPrincipal,
    db: DbSession,
    idempotency: Idempotency,
) -> AppointmentSeriesRead:
    """As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
    time in the practice's time zone, until a date or `count` times, at most 100). Every
    occurrence is checked for overlaps; any conflict refuses the whole series with one 409
    whose `details.conflicts` name each conflicting appointment, what it shares and the
    `occurrence_starts_at` it clashes with."""
    series = await service.create_series(db, principal, body)
    answer = AppointmentSeriesRead(
        series_id=series.series_id, items=[_answer(view) for view in series.occurrences]
    )
    return await idempotency.remember(201, answer)


@router.get(
    "",
    response_model=list[AppointmentRead],
    responses={
        **error_responses(*AUTHENTICATED),
        200: {"content": {"application/json": {"example": [APPOINTMENT_EXAMPLE]}}},
    },
    summary="The calendar: every appointment overlapping [start, end), as a plain list",
)
@declare(READS)
async def list_appointments(
    principal: CurrentPrincipal,
    db: DbSession,
    start: Annotated[
        UtcDatetime,
        Query(
            description="Inclusive, ISO 8601 with a UTC offset", examples=["2025-01-13T00:00:00Z"]
        ),
    ],
    end: Annotated[
        UtcDatetime,
        Query(
            description="Exclusive; after start and at most 62 days later",
            examples=["2025-01-20T00:00:00Z"],
        ),
    ],
    clinician_id: Annotated[
        list[uuid.UUID] | None,
        Query(
            max_length=MAX_CLINICIAN_FILTER,
            description="Only these clinicians' appointments; repeat for several "
            "(side-by-side calendars)",
        ),
    ] = None,
    client_id: Annotated[uuid.UUID | None, Query(description="Only this client's")] = None,
) -> list[AppointmentRead]:
    """Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar."""
    views = await service.list_appointments(
        db, principal, start, end, clinician_ids=clinician_id or (), client_id=client_id
    )
    return [_answer(view) for view in views]


@router.get(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(READS)
async def read_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> AppointmentRead:
    return _answer(await service.read_appointment(db, principal, appointment_id))


@router.patch(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(
        *AUTHENTICATED, 404, codes=("appointment_conflict", "no_changes", "invalid_clinician")
    ),
)
@declare(CHANGES)
async def update_appointment(
    appointment_id: uuid.UUID, body: AppointmentUpdate, principal: CurrentPrincipal, db: DbSession
) -> AppointmentRead:
    """Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking."""
    view = await service.update_appointment(db, principal, appointment_id, body)
    return _answer(view)


@router.post(
    "/{appointment_id}/cancel-following",
    response_model=CancelledOccurrences,
    responses=error_responses(*AUTHENTICATED, 404, codes=("not_in_series",)),
    summary="Cancel this occurrence of a series and every later one",
)
@declare(changes("appointments", answers_with_record=False))
async def cancel_following(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> CancelledOccurrences:
    """Sets status `cancelled` on this appointment and on every later occurrence of its
    series that is still `scheduled` (attended and no-show ones are kept); 422
    `not_in_series` for an appointment booked alone. Answers with the ids cancelled."""
    ids = await service.cancel_following(db, principal, appointment_id)
    return CancelledOccurrences(cancelled_ids=ids)


@router.delete("/{appointment_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("appointments", answers_with_record=False))
async def delete_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link."""
    await service.delete_appointment(db, principal, appointment_id)
    return Response(status_code=204)
