from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from carevault.api.batch import Batch, BatchGet
from carevault.api.changes import ChangedSinceParams
from carevault.api.conditional import IfMatch, IfNoneMatch
from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.replica import ReplicaReads
from carevault.api.strict_params import ApiRoute
from carevault.appointments import service
from carevault.appointments.models import Appointment
from carevault.appointments.schemas import (
    APPOINTMENT_EXAMPLE,
    AppointmentClient,
    AppointmentClinician,
    AppointmentCreate,
    AppointmentRead,
    AppointmentSeriesCreate,
    AppointmentSeriesRead,
    AppointmentUpdate,
    AppointmentUpsert,
    CancelledOccurrences,
    UtcDatetime,
)
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import BULK_COST, changes, declare, reads
from carevault.core import external
from carevault.core.fields import QueryInteger, invalid

MAX_SYNC_LIMIT = 500
DEFAULT_SYNC_LIMIT = 100

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
        external_id=appointment.external_id,
        metadata=external.parsed(appointment.metadata_json),
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
            "external_id_taken",
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
    db: ReplicaReads,
    changed: ChangedSinceParams,
    start: Annotated[
        UtcDatetime | None,
        Query(
            description="Inclusive, ISO 8601 with a UTC offset (required unless syncing by "
            "`updated_since` or `sort=updated_at`)",
            examples=["2025-01-13T00:00:00Z"],
        ),
    ] = None,
    end: Annotated[
        UtcDatetime | None,
        Query(
            description="Exclusive; after start and at most 62 days later (required with `start`)",
            examples=["2025-01-20T00:00:00Z"],
        ),
    ] = None,
    clinician_id: Annotated[
        list[uuid.UUID] | None,
        Query(
            max_length=MAX_CLINICIAN_FILTER,
            description="Only these clinicians' appointments; repeat for several "
            "(side-by-side calendars)",
        ),
    ] = None,
    client_id: Annotated[uuid.UUID | None, Query(description="Only this client's")] = None,
    limit: Annotated[
        QueryInteger | None,
        Query(
            ge=1,
            le=MAX_SYNC_LIMIT,
            description=f"Syncing only: at most this many (default {DEFAULT_SYNC_LIMIT})",
        ),
    ] = None,
    external_id: Annotated[
        str | None,
        Query(
            pattern=external.EXTERNAL_ID_PATTERN,
            max_length=255,
            description="Only the appointment with this external id of yours (exact)",
        ),
    ] = None,
) -> list[AppointmentRead]:
    """Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar.

    To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
    instead of `start` and `end`: appointments of any date changed since then, at most
    `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
    its `id`. Deletions are only in the change feed (GET /events)."""
    if changed.active and start is None and end is None:
        views = await service.list_changed_appointments(
            db,
            principal,
            changed,
            limit or DEFAULT_SYNC_LIMIT,
            clinician_ids=clinician_id or (),
            client_id=client_id,
            external_id=external_id,
        )
        return [_answer(view) for view in views]
    missing = [name for name, value in (("start", start), ("end", end)) if value is None]
    if missing or changed.active or limit is not None:
        raise invalid(
            "validation_error",
            "the calendar needs start and end; to sync, send updated_since or sort=updated_at "
            "(with limit) without them",
            *(missing or ["start", "end"]),
            location="query",
        )
    assert start is not None and end is not None
    views = await service.list_appointments(
        db,
        principal,
        start,
        end,
        clinician_ids=clinician_id or (),
        client_id=client_id,
        external_id=external_id,
    )
    return [_answer(view) for view in views]


@router.post(
    "/batch-get", response_model=Batch[AppointmentRead], responses=error_responses(*AUTHENTICATED)
)
@declare(READS)
async def batch_get_appointments(
    body: BatchGet, principal: CurrentPrincipal, db: DbSession
) -> Batch[AppointmentRead]:
    """Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
    reads each, in the order asked; one audit event names every appointment returned. Ids you
    may not read are in `not_found`, never told apart."""
    ids = body.distinct_ids()
    views = await service.read_appointments(db, principal, ids)
    return Batch.of(ids, [_answer(view) for view in views])


@router.get(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(READS)
async def read_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfNoneMatch
) -> AppointmentRead:
    await conditional.unchanged(db, principal, Appointment, appointment_id)
    view = await service.read_appointment(db, principal, appointment_id)
    conditional.tag(view.appointment)
    return _answer(view)


@router.patch(
    "/{appointment_id}",
    response_model=AppointmentRead,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=("appointment_conflict", "no_changes", "invalid_clinician", "external_id_taken"),
    ),
)
@declare(CHANGES)
async def update_appointment(
    appointment_id: uuid.UUID,
    body: AppointmentUpdate,
    principal: CurrentPrincipal,
    db: DbSession,
    conditional: IfMatch,
) -> AppointmentRead:
    """Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking."""
    await conditional.require(db, principal, Appointment, appointment_id)
    view = await service.update_appointment(db, principal, appointment_id, body)
    conditional.tag(view.appointment)
    return _answer(view)


@router.put(
    "/external/{external_id}",
    response_model=AppointmentRead,
    responses={
        201: {"model": AppointmentRead, "description": "Created: none had this external id"},
        **error_responses(
            *AUTHENTICATED,
            404,
            412,
            codes=("appointment_conflict", "external_id_taken", "invalid_clinician"),
        ),
    },
)
@declare(CHANGES)
async def upsert_appointment(
    external_id: Annotated[
        str,
        Path(
            pattern=external.EXTERNAL_ID_PATTERN,
            max_length=255,
            description="Your own id of the appointment (letters, digits and `._:-`; never PHI)",
            examples=["sched-000123"],
        ),
    ],
    body: AppointmentUpsert,
    principal: CurrentPrincipal,
    db: DbSession,
    response: Response,
    conditional: IfMatch,
) -> AppointmentRead:
    """Create or update by your own id: 201 with a new appointment when none has
    `external_id`, else 200 with that appointment changed (the fields sent are set, the
    others kept, `metadata` merged; `client_id` cannot change; a move is checked for
    overlaps as a `PATCH` is). Safe to retry and to run concurrently. With `If-Match`, only
    if the appointment exists at that `ETag` (else 412)."""
    if conditional.if_match is not None:
        existing = await service.find_external(db, principal, external_id)
        if existing is None:
            raise ApiError(412, "precondition_failed", "no appointment has this external_id")
        await conditional.require(db, principal, Appointment, existing)
    view, created = await service.upsert_appointment(db, principal, external_id, body)
    if created:
        response.status_code = 201
    conditional.tag(view.appointment)
    return _answer(view)


@router.post(
    "/{appointment_id}/cancel-following",
    response_model=CancelledOccurrences,
    responses=error_responses(*AUTHENTICATED, 404, codes=("not_in_series",)),
    summary="Cancel this occurrence of a series and every later one",
)
@declare(changes("appointments", answers_with_record=False))
async def cancel_following(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> CancelledOccurrences:
    """Sets status `cancelled` on this appointment and on every later occurrence of its
    series that is still `scheduled` (attended and no-show ones are kept); 422
    `not_in_series` for an appointment booked alone. Answers with the ids cancelled."""
    await conditional.require(db, principal, Appointment, appointment_id)
    ids = await service.cancel_following(db, principal, appointment_id)
    return CancelledOccurrences(cancelled_ids=ids)


@router.delete("/{appointment_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("appointments", answers_with_record=False))
async def delete_appointment(
    appointment_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> Response:
    """Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link."""
    await conditional.require(db, principal, Appointment, appointment_id)
    await service.delete_appointment(db, principal, appointment_id)
    return Response(status_code=204)
