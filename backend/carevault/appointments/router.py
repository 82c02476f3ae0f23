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
    AppointmentCreate,
    AppointmentRead,
    AppointmentUpdate,
    UtcDatetime,
)
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import changes, declare, reads

router = APIRouter(prefix="/appointments", tags=["appointments"], route_class=ApiRoute)


@router.post(
    "",
    response_model=AppointmentRead,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED, 404, codes=("appointment_conflict", "client_archived")
    ),
)
@declare(changes("appointments"))
async def create_appointment(
    body: AppointmentCreate, principal: CurrentPrincipal, db: DbSession, idempotency: Idempotency
) -> AppointmentRead:
    """Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one). An overlap with an appointment that is not cancelled is 409
    `appointment_conflict` with `details.conflicting_ids`, unless `allow_overlap` is true."""
    appointment = await service.create_appointment(db, principal, body)
    return await idempotency.remember(201, AppointmentRead.model_validate(appointment))


@router.get(
    "",
    response_model=list[AppointmentRead],
    responses={
        **error_responses(*AUTHENTICATED),
        200: {"content": {"application/json": {"example": [APPOINTMENT_EXAMPLE]}}},
    },
    summary="The calendar: every appointment overlapping [start, end), as a plain list",
)
@declare(reads("appointments"))
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
) -> list[AppointmentRead]:
    """Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Clients are named by `client_id`
    only; fetch the ones to show from `/clients`."""
    appointments = await service.list_appointments(db, principal, start, end)
    return [AppointmentRead.model_validate(appointment) for appointment in appointments]


@router.get(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(reads("appointments"))
async def read_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> AppointmentRead:
    appointment = await service.read_appointment(db, principal, appointment_id)
    return AppointmentRead.model_validate(appointment)


@router.patch(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("appointment_conflict", "no_changes")),
)
@declare(changes("appointments"))
async def update_appointment(
    appointment_id: uuid.UUID, body: AppointmentUpdate, principal: CurrentPrincipal, db: DbSession
) -> AppointmentRead:
    """Reschedule, change the status, location or notes; only the fields sent change.
    Moving an appointment, or un-cancelling one, is checked for overlaps like a booking."""
    appointment = await service.update_appointment(db, principal, appointment_id, body)
    return AppointmentRead.model_validate(appointment)


@router.delete("/{appointment_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("appointments", answers_with_record=False))
async def delete_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link."""
    await service.delete_appointment(db, principal, appointment_id)
    return Response(status_code=204)
