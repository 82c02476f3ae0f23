from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from carevault.api.batch import Batch, BatchGet
from carevault.api.changes import ChangedSinceParams
from carevault.api.conditional import IfMatch, IfNoneMatch
from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.replica import ReplicaReads
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import ANY_CREDENTIAL, changes, declare, reads
from carevault.auth.principal import Principal
from carevault.core.external import EXTERNAL_ID_PATTERN
from carevault.notes import service, signing
from carevault.notes.models import NoteStatus, SessionNote
from carevault.notes.schemas import (
    AttestationsRead,
    AttestationStatement,
    SessionNoteCosign,
    SessionNoteCreate,
    SessionNoteFinalize,
    SessionNoteRead,
    SessionNoteUpdate,
    SessionNoteVersionRead,
)

router = APIRouter(prefix="/sessions", tags=["session notes"], route_class=ApiRoute)


async def _answers(db: DbSession, principal: Principal, notes: list[Any]) -> list[SessionNoteRead]:
    """The notes as answered, each with its addenda."""
    found = await service.addenda(db, principal.workspace_id, notes)
    return [SessionNoteRead.of(note, found.get(note.id, ())) for note in notes]


async def _answer(db: DbSession, principal: Principal, note: Any) -> SessionNoteRead:
    return (await _answers(db, principal, [note]))[0]


@router.post(
    "",
    response_model=SessionNoteRead,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=("appointment_client_mismatch", "person_required", "external_id_taken"),
    ),
)
@declare(changes("notes"))
async def create_session_note(
    body: SessionNoteCreate, principal: CurrentPrincipal, db: DbSession, idempotency: Idempotency
) -> SessionNoteRead:
    """Start a draft note for a client of your workspace, optionally tied to an appointment.
    A retry with the same `Idempotency-Key` returns the first response (see
    docs/reference/api.md)."""
    note = await service.create_note(db, principal, body)
    return await idempotency.remember(201, SessionNoteRead.of(note))


@router.get("", response_model=Page[SessionNoteRead], responses=error_responses(*AUTHENTICATED))
@declare(reads("notes"))
async def list_session_notes(
    principal: CurrentPrincipal,
    db: ReplicaReads,
    paging: PageParams,
    changes: ChangedSinceParams,
    client_id: Annotated[uuid.UUID | None, Query(description="Only this client's notes")] = None,
    appointment_id: Annotated[
        uuid.UUID | None, Query(description="Only the note(s) of this appointment")
    ] = None,
    include_deleted: Annotated[bool, Query(description="Include soft-deleted notes")] = False,
    status: Annotated[
        NoteStatus | None,
        Query(description="Only drafts (unsigned) or only finalized (signed) notes"),
    ] = None,
    author_id: Annotated[
        uuid.UUID | None,
        Query(
            description="Only this user's notes (your unsigned notes: `status=draft` and your id)"
        ),
    ] = None,
    external_id: Annotated[
        str | None,
        Query(
            pattern=EXTERNAL_ID_PATTERN,
            max_length=255,
            description="Only the note with this external id of yours (exact)",
        ),
    ] = None,
) -> Page[SessionNoteRead]:
    """Notes of your workspace, newest session first. To sync: `updated_since`,
    `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_deleted=true` to see deletions."""
    notes, total = await service.list_notes(
        db,
        principal,
        paging,
        client_id=client_id,
        appointment_id=appointment_id,
        include_deleted=include_deleted,
        status=status,
        author_id=author_id,
        changes=changes,
        external_id=external_id,
    )
    return Page.of(await _answers(db, principal, notes), total, paging)


# Before /{note_id}, which would take these names for note ids.
@router.get(
    "/attestations", response_model=AttestationsRead, responses=error_responses(*AUTHENTICATED)
)
@declare(ANY_CREDENTIAL)
async def read_attestations(principal: CurrentPrincipal) -> AttestationsRead:
    """The statements signing (`POST /sessions/{id}/finalize`) and co-signing attest; send
    the `version` shown with the signature."""
    signature, cosignature = signing.signature_statement(), signing.cosignature_statement()
    return AttestationsRead(
        signature=AttestationStatement(version=signature.version, text=signature.text),
        cosignature=AttestationStatement(version=cosignature.version, text=cosignature.text),
    )


@router.get(
    "/awaiting-cosign",
    response_model=Page[SessionNoteRead],
    responses=error_responses(*AUTHENTICATED),
)
@declare(reads("notes"))
async def list_notes_awaiting_cosign(
    principal: CurrentPrincipal, db: DbSession, paging: PageParams
) -> Page[SessionNoteRead]:
    """Signed notes awaiting a co-signature you may give: for an owner every trainee's
    note but your own, for a supervisor those of the clinicians you supervise."""
    notes, total = await service.list_notes(db, principal, paging, awaiting_my_cosign=True)
    return Page.of(await _answers(db, principal, notes), total, paging)


@router.post(
    "/batch-get", response_model=Batch[SessionNoteRead], responses=error_responses(*AUTHENTICATED)
)
@declare(reads("notes"))
async def batch_get_session_notes(
    body: BatchGet, principal: CurrentPrincipal, db: DbSession
) -> Batch[SessionNoteRead]:
    """Up to 100 notes by id in one request, as `GET /sessions/{note_id}` reads each (with
    their addenda), in the order asked; one audit event names every note returned. Ids you
    may not read (deleted ones included) are in `not_found`, never told apart."""
    ids = body.distinct_ids()
    notes = await service.read_notes(db, principal, ids)
    return Batch.of(ids, await _answers(db, principal, notes))


@router.get(
    "/{note_id}", response_model=SessionNoteRead, responses=error_responses(*AUTHENTICATED, 404)
)
@declare(reads("notes"))
async def read_session_note(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfNoneMatch
) -> SessionNoteRead:
    await conditional.unchanged(db, principal, SessionNote, note_id)
    note = await service.read_note(db, principal, note_id)
    conditional.tag(note)
    return await _answer(db, principal, note)


@router.patch(
    "/{note_id}",
    response_model=SessionNoteRead,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=(
            "person_required",
            "version_conflict",
            "external_id_taken",
            "not_signed",
            "no_changes",
            "finalized_field_locked",
            "empty_note",
            "reason_required",
        ),
    ),
)
@declare(changes("notes"))
async def update_session_note(
    note_id: uuid.UUID,
    body: SessionNoteUpdate,
    principal: CurrentPrincipal,
    db: DbSession,
    conditional: IfMatch,
) -> SessionNoteRead:
    """Save the fields that changed, at the `version` you last saw (409 `version_conflict`
    with `current_version` if the note changed since). On a signed note this is an
    amendment and needs a `reason` (422 `reason_required`): the replaced content is kept
    (`GET /sessions/{id}/versions`) and the amendment is listed in `addenda`."""
    await conditional.require(db, principal, SessionNote, note_id)
    note = await service.save_changes(db, principal, note_id, body)
    conditional.tag(note)
    return await _answer(db, principal, note)


@router.post(
    "/{note_id}/finalize",
    response_model=SessionNoteRead,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=(
            "person_required",
            "already_finalized",
            "version_conflict",
            "empty_note",
            "not_the_author",
            "attestation_outdated",
        ),
    ),
)
@declare(changes("notes"))
async def finalize_session_note(
    note_id: uuid.UUID,
    body: SessionNoteFinalize,
    principal: CurrentPrincipal,
    db: DbSession,
    conditional: IfMatch,
) -> SessionNoteRead:
    """Sign the note as its author, attesting the statement of `attestation_version`
    (`GET /sessions/attestations`), and lock it. Records who signed and when, flags a late
    entry, and seals the content's SHA-256 into the audit trail; a trainee's note then
    awaits a co-signature. 403 `not_the_author`; 422 `empty_note` if every SOAP section is
    empty; 409 `already_finalized`, or `version_conflict` if `version` is stale."""
    await conditional.require(db, principal, SessionNote, note_id)
    note = await service.finalize_note(
        db, principal, note_id, body.version, body.attestation_version
    )
    conditional.tag(note)
    return await _answer(db, principal, note)


@router.post(
    "/{note_id}/cosign",
    response_model=SessionNoteRead,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=(
            "person_required",
            "not_awaiting_cosign",
            "version_conflict",
            "cosign_by_author",
            "not_a_supervisor",
            "attestation_outdated",
        ),
    ),
)
@declare(changes("notes"))
async def cosign_session_note(
    note_id: uuid.UUID,
    body: SessionNoteCosign,
    principal: CurrentPrincipal,
    db: DbSession,
    conditional: IfMatch,
) -> SessionNoteRead:
    """Co-sign a trainee's signed note, attesting the co-signature statement: an owner or
    the author's supervisor, never the author (403 `cosign_by_author`, `not_a_supervisor`).
    409 `not_awaiting_cosign`, or `version_conflict` if `version` is stale."""
    await conditional.require(db, principal, SessionNote, note_id)
    note = await service.cosign_note(db, principal, note_id, body.version, body.attestation_version)
    conditional.tag(note)
    return await _answer(db, principal, note)


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
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> Response:
    """Soft-delete: the note is hidden until restored."""
    await conditional.require(db, principal, SessionNote, note_id)
    await service.delete_note(db, principal, note_id)
    return Response(status_code=204)


@router.post(
    "/{note_id}/restore",
    response_model=SessionNoteRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(changes("notes"))
async def restore_session_note(
    note_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> SessionNoteRead:
    """Bring back a soft-deleted note."""
    await conditional.require(db, principal, SessionNote, note_id, include_deleted=True)
    note = await service.restore_note(db, principal, note_id)
    conditional.tag(note)
    return await _answer(db, principal, note)
