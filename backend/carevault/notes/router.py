from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Response

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import changes, declare, reads
from carevault.notes import service
from carevault.notes.schemas import (
    SessionNoteCreate,
    SessionNoteFinalize,
    SessionNoteRead,
    SessionNoteUpdate,
    SessionNoteVersionRead,
)

router = APIRouter(prefix="/sessions", tags=["session notes"], route_class=ApiRoute)


@router.post(
    "",
    response_model=SessionNoteRead,
    status_code=201,
    responses=error_responses(*AUTHENTICATED, 404, codes=("appointment_client_mismatch",)),
)
@declare(changes("notes"))
async def create_session_note(
    body: SessionNoteCreate, principal: CurrentPrincipal, db: DbSession, idempotency: Idempotency
) -> SessionNoteRead:
    """Start a draft note for a client of your workspace, optionally tied to an appointment.
    A retry with the same `Idempotency-Key` returns the first response (see docs/api.md)."""
    note = await service.create_note(db, principal, body)
    return await idempotency.remember(201, SessionNoteRead.model_validate(note))


@router.get("", response_model=Page[SessionNoteRead], responses=error_responses(*AUTHENTICATED))
@declare(reads("notes"))
async def list_session_notes(
    principal: CurrentPrincipal,
    db: DbSession,
    paging: PageParams,
    client_id: Annotated[uuid.UUID | None, Query(description="Only this client's notes")] = None,
    appointment_id: Annotated[
        uuid.UUID | None, Query(description="Only the note(s) of this appointment")
    ] = None,
    include_deleted: Annotated[bool, Query(description="Include soft-deleted notes")] = False,
) -> Page[SessionNoteRead]:
    """Notes of your workspace, newest session first."""
    notes, total = await service.list_notes(
        db,
        principal,
        paging,
        client_id=client_id,
        appointment_id=appointment_id,
        include_deleted=include_deleted,
    )
    return Page.of([SessionNoteRead.model_validate(note) for note in notes], total, paging)


@router.get(
    "/{note_id}", response_model=SessionNoteRead, responses=error_responses(*AUTHENTICATED, 404)
)
@declare(reads("notes"))
async def read_session_note(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> SessionNoteRead:
    return SessionNoteRead.model_validate(await service.read_note(db, principal, note_id))


@router.patch(
    "/{note_id}",
    response_model=SessionNoteRead,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=("version_conflict", "no_changes", "finalized_field_locked", "empty_note"),
    ),
)
@declare(changes("notes"))
async def update_session_note(
    note_id: uuid.UUID, body: SessionNoteUpdate, principal: CurrentPrincipal, db: DbSession
) -> SessionNoteRead:
    """Save the fields that changed, at the `version` you last saw (409 `version_conflict`
    with `current_version` if the note changed since). On a finalized note this is an
    amendment: the replaced content is kept and listed by `GET /sessions/{id}/versions`."""
    return SessionNoteRead.model_validate(await service.save_changes(db, principal, note_id, body))


@router.post(
    "/{note_id}/finalize",
    response_model=SessionNoteRead,
    responses=error_responses(
        *AUTHENTICATED, 404, codes=("already_finalized", "version_conflict", "empty_note")
    ),
)
@declare(changes("notes"))
async def finalize_session_note(
    note_id: uuid.UUID, body: SessionNoteFinalize, principal: CurrentPrincipal, db: DbSession
) -> SessionNoteRead:
    """Lock the note. 422 `empty_note` if every SOAP section is empty; 409
    `already_finalized`, or `version_conflict` if `version` is stale."""
    note = await service.finalize_note(db, principal, note_id, body.version)
    return SessionNoteRead.model_validate(note)


@router.get(
    "/{note_id}/versions",
    response_model=Page[SessionNoteVersionRead],
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(reads("notes"))
async def list_session_note_versions(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, paging: PageParams
) -> Page[SessionNoteVersionRead]:
    """The content that amendments replaced, newest first (the current content is the note
    itself; drafts and finalizing keep no history)."""
    versions, total = await service.list_versions(db, principal, note_id, paging)
    items = [SessionNoteVersionRead.model_validate(version) for version in versions]
    return Page.of(items, total, paging)


@router.delete("/{note_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("notes", answers_with_record=False))
async def delete_session_note(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Soft-delete: the note is hidden until restored."""
    await service.delete_note(db, principal, note_id)
    return Response(status_code=204)


@router.post(
    "/{note_id}/restore",
    response_model=SessionNoteRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(changes("notes"))
async def restore_session_note(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> SessionNoteRead:
    """Bring back a soft-deleted note."""
    return SessionNoteRead.model_validate(await service.restore_note(db, principal, note_id))
