"""Session notes: drafts saved often and cheaply; finalizing is the author signing the note
(carevault.notes.signing), which locks it; a trainee's signed note awaits a co-signature.
Signed notes are amended with a reason, never overwritten, each replaced version kept in
`session_versions` and shown as an addendum. Every read and change is audited with ids,
versions, field names and content hashes only, never the content."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any, cast

from sqlalchemy import Row, Table, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.audit import service as audit
from carevault.auth.models import User
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients.models import Client
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, Forbidden, Invalid, not_found
from carevault.core.fields import invalid
from carevault.core.paging import Pagination
from carevault.db import direct, external
from carevault.db.changes import NOT_FILTERED, ChangedSince, by_updated_at, where_changed
from carevault.db.encryption import bound_changes
from carevault.db.paging import fetch_page
from carevault.db.readable import scalars_skipping_unreadable
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter
from carevault.notes import signing
from carevault.notes.models import CosignStatus, NoteStatus, SessionNote, SessionNoteVersion
from carevault.notes.schemas import SessionNoteCreate, SessionNoteUpdate
from carevault.workspaces.models import Workspace
from carevault.workspaces.time import after_practice_today

RESOURCE_TYPE = "session"
SOAP_FIELDS = ("subjective", "objective", "assessment", "plan")
# session_versions keeps the SOAP sections only, so amending these would lose the old value.
LOCKED_WHEN_FINALIZED = ("session_date", "duration_minutes")


def _version_conflict(current_version: int) -> Conflict:
    return Conflict(
        "version_conflict",
        "the note has changed since you loaded it; reload it and apply your change again",
        details={"current_version": current_version},
    )


def _is_empty(content: dict[str, Any]) -> bool:
    return all(not (content.get(field) or "").strip() for field in SOAP_FIELDS)


def _content(note: SessionNote) -> dict[str, Any]:
    return {field: getattr(note, field) for field in SOAP_FIELDS}


# Every statement on notes is limited to the charts the caller sees (carevault.clients.access).
_notes = WorkspaceRepository(
    SessionNote, noun="session note", condition=access.chart_condition(SessionNote)
)


# Built once, the workspace a bound value like the note's id.
_STATE = (
    in_workspace(SessionNote, bindparam("workspace_id"))
    .where(SessionNote.id == bindparam("note_id"), access.chart_condition(SessionNote))
    .with_only_columns(SessionNote.version, SessionNote.status, SessionNote.deleted_at)
)


async def _state(db: AsyncSession, principal: Principal, note_id: uuid.UUID) -> Any | None:
    """Version, status and deletion time only: no encrypted column is read. Sent alone when
    the request holds no transaction (a stale autosave's 409 needs no BEGIN and ROLLBACK)."""
    rows = await direct.rows_alone(
        db,
        _STATE,
        {
            "workspace_id": principal.workspace_id,
            "note_id": note_id,
            **access.chart_values(principal),
        },
    )
    return rows[0] if rows else None


async def _refuse_future_session_date(
    db: AsyncSession, workspace_id: uuid.UUID, session_date: date | None
) -> None:
    today = await after_practice_today(db, workspace_id, session_date)
    if today is not None:
        raise invalid(
            "validation_error",
            f"the session date cannot be after the practice's today ({today.isoformat()})",
            "session_date",
        )


async def create_note(
    db: AsyncSession, principal: Principal, body: SessionNoteCreate
) -> SessionNote:
    workspace_id = principal.workspace_id
    client_id = await db.scalar(
        access.charted(
            in_workspace(Client, workspace_id)
            .where(Client.id == body.client_id)
            .with_only_columns(Client.id),
            principal,
            Client,
        )
    )
    if client_id is None:
        raise not_found("client")
    if body.appointment_id is not None:
        appointment_client_id = await db.scalar(
            access.charted(
                in_workspace(Appointment, workspace_id)
                .where(Appointment.id == body.appointment_id)
                .with_only_columns(Appointment.client_id),
                principal,
                Appointment,
            )
        )
        if appointment_client_id is None:
            raise not_found("appointment")
        if appointment_client_id != body.client_id:
            raise invalid(
                "appointment_client_mismatch",
                "the appointment belongs to another client",
                "appointment_id",
            )
    await _refuse_future_session_date(db, workspace_id, body.session_date)
    values = await external.columns(db, SessionNote, RESOURCE_TYPE, workspace_id, body.model_dump())
    note = SessionNote(
        workspace_id=workspace_id,
        status=NoteStatus.DRAFT.value,
        version=1,
        author_id=principal.person_id,
        **values,
    )
    db.add(note)
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "session.create",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id],
        details={"client_id": str(note.client_id), "version": note.version}
        | ({"psychotherapy_note": True} if note.psychotherapy_note else {}),
    )
    return note


_CLIENT_OF_NOTE = _notes.statement().with_only_columns(SessionNote.client_id)

# The hottest read: the note and its audit event in one statement (see AuditedRows).
_READ_NOTE = audit.AuditedRows(
    _notes.statement(), action="session.read", resource_type=RESOURCE_TYPE
)  # the repository's statement: chart access included


async def read_note(db: AsyncSession, principal: Principal, note_id: uuid.UUID) -> Row[Any]:
    """The note's columns (a row, not an ORM instance: nothing here changes it). A read of
    a note its reader sees only through a break-the-glass grant is flagged in its event."""
    values = {"workspace_id": principal.workspace_id, "row_id": note_id}
    values |= access.chart_values(principal)
    flag: dict[str, bool] = {}
    if access.through_grant(principal):  # never on the hot path of the other callers
        client_id = await db.scalar(_CLIENT_OF_NOTE, values)
        flag = await access.glass_flag(db, principal, [client_id] if client_id else [])
    rows = await _READ_NOTE.execute(db, principal.actor, values, details=flag or None)
    if not rows:
        raise not_found("session note")
    return rows[0]


async def read_notes(
    db: AsyncSession, principal: Principal, ids: list[uuid.UUID]
) -> list[SessionNote]:
    """The notes among `ids` the caller sees (not deleted), in the order of `ids`: one
    `session.read` event names them all."""
    statement = access.charted(
        in_workspace(SessionNote, principal.workspace_id).where(
            SessionNote.id.in_(ids), SessionNote.deleted_at.is_(None)
        ),
        principal,
        SessionNote,
    )
    loaded, unreadable = await scalars_skipping_unreadable(db, statement, SessionNote.id)
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    order = {note_id: position for position, note_id in enumerate(ids)}
    notes = sorted(loaded, key=lambda note: order[note.id])
    await audit.record(
        db,
        principal.actor,
        "session.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id for note in notes],
        details={"batch": True, "count": len(notes)}
        | await access.glass_flag(db, principal, [note.client_id for note in notes]),
    )
    return notes


async def list_notes(
    db: AsyncSession,
    principal: Principal,
    paging: Pagination,
    *,
    client_id: uuid.UUID | None = None,
    appointment_id: uuid.UUID | None = None,
    include_deleted: bool = False,
    status: NoteStatus | None = None,
    author_id: uuid.UUID | None = None,
    awaiting_my_cosign: bool = False,
    changes: ChangedSince = NOT_FILTERED,
    external_id: str | None = None,
) -> tuple[list[SessionNote], int]:
    """Newest first (or by (updated_at, id) with `changes.by_updated_at`); one audit event
    names every note returned. `awaiting_my_cosign`: only
    the notes awaiting a co-signature the caller may give (see `cosign_note`), of the charts
    they see."""
    statement = access.charted(
        in_workspace(SessionNote, principal.workspace_id), principal, SessionNote
    )
    if client_id is not None:
        statement = statement.where(SessionNote.client_id == client_id)
    if appointment_id is not None:
        statement = statement.where(SessionNote.appointment_id == appointment_id)
    if not include_deleted:
        statement = statement.where(SessionNote.deleted_at.is_(None))
    if status is not None:
        statement = statement.where(SessionNote.status == status.value)
    if author_id is not None:
        statement = statement.where(SessionNote.author_id == author_id)
    if external_id is not None:
        statement = statement.where(
            SessionNote.external_id_bidx.in_(
                external.candidates(RESOURCE_TYPE, principal.workspace_id, external_id)
            )
        )
    if awaiting_my_cosign:
        statement = statement.where(
            SessionNote.cosign_status == CosignStatus.AWAITING.value,
            SessionNote.author_id != principal.user.id,
        )
        if not principal.is_owner:
            supervised = in_workspace(User, principal.workspace_id).where(
                User.supervisor_id == principal.user.id
            )
            statement = statement.where(
                SessionNote.author_id.in_(supervised.with_only_columns(User.id))
            )
    statement = where_changed(statement, SessionNote, changes)
    total = await db.scalar(select(func.count()).select_from(statement.subquery()))
    ordered = (
        by_updated_at(statement, SessionNote)
        if changes.by_updated_at
        else statement.order_by(
            SessionNote.session_date.desc(),
            SessionNote.created_at.desc(),
            SessionNote.id.desc(),
        )
    )
    notes, unreadable = await scalars_skipping_unreadable(
        db,
        ordered.offset(paging.offset).limit(paging.page_size),
        SessionNote.id,
    )
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    await audit.record(
        db,
        principal.actor,
        "session.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id for note in notes],
        details={
            "client_id": str(client_id) if client_id else None,
            "include_deleted": include_deleted,
            "count": len(notes),
        }
        | ({"awaiting_cosign": True} if awaiting_my_cosign else {})
        | await access.glass_flag(db, principal, [note.client_id for note in notes]),
    )
    return notes, int(total or 0)


_DRAFT_SAVES: dict[frozenset[str], audit.AuditedRows] = {}


def _draft_save(fields: frozenset[str]) -> audit.AuditedRows:
    """`UPDATE sessions SET <fields>, version = version + 1 WHERE <this draft, at the version
    the caller saw> RETURNING *` with its audit event; built once per set of fields."""
    saver = _DRAFT_SAVES.get(fields)
    if saver is None:
        table: Table = SessionNote.__table__  # type: ignore[assignment]
        target = (
            update(table)
            .where(
                # Not named after their columns: in an UPDATE, a parameter named like a
                # column is a value to SET.
                table.c.workspace_id == bindparam("in_workspace"),
                table.c.id == bindparam("row_id"),
                table.c.version == bindparam("seen_version"),
                table.c.status == NoteStatus.DRAFT.value,
                table.c.deleted_at.is_(None),
                access.chart_condition(SessionNote),
            )
            .values(
                {
                    name: bindparam(f"new_{name}", type_=table.c[name].type)
                    for name in sorted(fields)
                }
                | {"version": table.c.version + 1}
            )
            .returning(*table.c)
        )
        saver = _DRAFT_SAVES[fields] = audit.AuditedRows(
            target, action="session.update", resource_type=RESOURCE_TYPE
        )
    return saver


async def save_changes(
    db: AsyncSession, principal: Principal, note_id: uuid.UUID, body: SessionNoteUpdate
) -> SessionNote | Row[Any]:
    """Autosave a draft, or amend a signed note (with a `reason`); either way only at the
    version the caller last saw, so two tabs never overwrite each other silently. A change
    with a `reason` is an amendment and never saves a draft, so a stale tab cannot turn an
    autosave into an amendment, nor an amendment into a draft save."""
    changes = body.changes()
    if not changes:
        raise Invalid("no_changes", "send at least one field to change besides version and reason")
    workspace_id = principal.workspace_id
    if body.session_date is not None:  # rare on the autosave path: only then the query
        await _refuse_future_session_date(db, workspace_id, body.session_date)
    if "external_id" in changes or "metadata" in changes:  # never on the autosave path
        changes = await _integrator_columns(db, principal, note_id, changes)
    if body.reason is not None:
        return await _amend(db, principal, note_id, body.version, changes, body.reason)
    # Autosave runs every few seconds, so a draft is saved in ONE statement, its audit event
    # included: the version the caller saw is part of the WHERE (a stale save matches no
    # row, so no read-then-write race and no lock), only the changed fields are bound (only
    # they are encrypted again), and the saved note comes back through RETURNING. Only when
    # nothing matched does a second, cheap query (no encrypted columns) tell a missing note
    # from a stale version or a finalized note, which is amended instead.
    saved = await _draft_save(frozenset(changes)).execute(
        db,
        principal.actor,
        {
            "in_workspace": workspace_id,
            "row_id": note_id,
            "seen_version": body.version,
            **access.chart_values(principal),
            **{
                f"new_{name}": value
                for name, value in bound_changes(
                    SessionNote, workspace_id, note_id, changes
                ).items()
            },
        },
        details={"fields": sorted(changes), "version": body.version + 1} | _classification(changes),
    )
    if saved:
        return saved[0]
    state = await _state(db, principal, note_id)
    if state is None or state.deleted_at is not None:
        raise not_found("session note")
    if state.version != body.version or state.status != NoteStatus.FINALIZED.value:
        raise _version_conflict(state.version)
    raise _reason_required()


async def _integrator_columns(
    db: AsyncSession, principal: Principal, note_id: uuid.UUID, changes: dict[str, Any]
) -> dict[str, Any]:
    """`changes` with the external id claimed and the metadata merged into the note's (read
    and locked here; the save or amendment that follows still checks the version)."""
    current = (
        await db.execute(
            access.charted(
                in_workspace(SessionNote, principal.workspace_id)
                .where(SessionNote.id == note_id, SessionNote.deleted_at.is_(None))
                .with_only_columns(SessionNote.id, SessionNote.metadata_json),
                principal,
                SessionNote,
            ).with_for_update()
        )
    ).one_or_none()
    if current is None:
        raise not_found("session note")
    return await external.columns(
        db, SessionNote, RESOURCE_TYPE, principal.workspace_id, changes, record=current
    )


def _reason_required() -> Invalid:
    return invalid(
        "reason_required",
        "the note is signed: an amendment needs a reason (why the signed note changes)",
        "reason",
    )


async def _amend(
    db: AsyncSession,
    principal: Principal,
    note_id: uuid.UUID,
    seen_version: int,
    changes: dict[str, Any],
    reason: str,
) -> SessionNote:
    """Keep the signed content in session_versions with the amendment's author, time and
    reason, then apply the change. Amendments are rare, so this one reads (and locks) the
    note first."""
    if not reason.strip():
        raise _reason_required()
    workspace_id = principal.workspace_id
    note = await db.scalar(
        access.charted(
            in_workspace(SessionNote, workspace_id).where(
                SessionNote.id == note_id,
                SessionNote.version == seen_version,
                SessionNote.deleted_at.is_(None),
            ),
            principal,
            SessionNote,
        ).with_for_update()
    )
    if note is None:  # missing, out of sight, or changed since the caller saw it
        state = await _state(db, principal, note_id)
        if state is None or state.deleted_at is not None:
            raise not_found("session note")
        raise _version_conflict(state.version)
    if note.status != NoteStatus.FINALIZED.value:
        raise Conflict(
            "not_signed",
            "the note is a draft: save it without a reason (only signed notes are amended)",
            details={"current_version": note.version},
        )
    locked = [field for field in LOCKED_WHEN_FINALIZED if field in changes]
    if locked:
        raise invalid(
            "finalized_field_locked", "this field of a finalized note cannot change", *locked
        )
    previous = _content(note)
    if _is_empty(previous | changes):
        raise invalid(
            "empty_note", "a finalized note needs at least one SOAP section", *SOAP_FIELDS
        )
    now = utc_now()
    db.add(
        SessionNoteVersion(
            workspace_id=workspace_id,
            session_id=note.id,
            version=note.version,
            amended_by=principal.person_id,
            amended_at=now,
            reason=reason,
            **previous,
        )
    )
    for field, value in changes.items():
        setattr(note, field, value)
    note.version = seen_version + 1
    note.updated_at = now
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "session.amend",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id],
        details={
            "fields": sorted(changes),
            "previous_version": seen_version,
            "version": note.version,
            "content_sha256": signing.content_hash(note),
        }
        | _classification(changes),
    )
    return note


def _classification(changes: dict[str, Any]) -> dict[str, Any]:
    """A change of the psychotherapy-note mark, named in the audit event (a classification,
    not PHI): who marked or unmarked a note is part of the record of its disclosure."""
    if "psychotherapy_note" in changes:
        return {"psychotherapy_note": bool(changes["psychotherapy_note"])}
    return {}


def _refuse_outdated_attestation(given: int, current: signing.Statement) -> None:
    if given != current.version:
        raise invalid(
            "attestation_outdated",
            f"attest the current statement (version {current.version}, "
            "GET /sessions/attestations) to sign",
            "attestation_version",
        )


async def finalize_note(
    db: AsyncSession,
    principal: Principal,
    note_id: uuid.UUID,
    seen_version: int,
    attestation_version: int,
) -> SessionNote:
    """Sign the note as its author, attesting the current statement; this locks it. The
    audit event carries the content's hash; a trainee's note then awaits a co-signature."""
    _refuse_outdated_attestation(attestation_version, signing.signature_statement())
    note = await _notes.get(
        db, principal.workspace_id, note_id, lock=True, values=access.chart_values(principal)
    )
    if note.status == NoteStatus.FINALIZED.value:
        raise Conflict(
            "already_finalized",
            "the note is already signed; change it with PATCH and a reason to amend it",
            details={"current_version": note.version},
        )
    if note.version != seen_version:
        raise _version_conflict(note.version)
    if note.author_id != principal.person_id:
        raise Forbidden("not_the_author", "only the note's author can sign it")
    if _is_empty(_content(note)):
        raise invalid(
            "empty_note", "write at least one SOAP section before finalizing", *SOAP_FIELDS
        )
    practice = (
        await db.execute(
            select(Workspace.time_zone, Workspace.late_entry_hours).where(
                Workspace.id == principal.workspace_id
            )
        )
    ).one()
    requires_cosign = await db.scalar(
        in_workspace(User, principal.workspace_id)
        .where(User.id == principal.user.id)
        .with_only_columns(User.requires_cosign)
    )
    appointment_ends_at = None
    if note.appointment_id is not None:
        appointment_ends_at = await db.scalar(
            access.charted(
                in_workspace(Appointment, principal.workspace_id)
                .where(Appointment.id == note.appointment_id)
                .with_only_columns(Appointment.ends_at),
                principal,
                Appointment,
            )
        )
    now = utc_now()
    ended = signing.session_end(note.session_date, appointment_ends_at, practice.time_zone)
    note.status = NoteStatus.FINALIZED.value
    note.finalized_at = now
    note.signed_by = principal.person_id
    note.attestation_version = attestation_version
    note.late_entry = signing.is_late_entry(now, ended, practice.late_entry_hours)
    note.cosign_status = CosignStatus.AWAITING.value if requires_cosign else None
    note.version = seen_version + 1
    note.updated_at = now
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "session.finalize",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id],
        details={
            "version": note.version,
            "attestation_version": attestation_version,
            "content_sha256": signing.content_hash(note),
            "late_entry": note.late_entry,
            "cosign_status": note.cosign_status,
        },
    )
    return note


async def cosign_note(
    db: AsyncSession,
    principal: Principal,
    note_id: uuid.UUID,
    seen_version: int,
    attestation_version: int,
) -> SessionNote:
    """Co-sign a signed note that awaits it: by an owner or the author's supervisor, never
    by the author, and only on a chart they see (a supervisor outside the client's care team
    gets a 404 under `care_team` chart access). Recorded like the signature, its content hash
    in the audit event."""
    _refuse_outdated_attestation(attestation_version, signing.cosignature_statement())
    note = await _notes.get(
        db, principal.workspace_id, note_id, lock=True, values=access.chart_values(principal)
    )
    if note.cosign_status != CosignStatus.AWAITING.value:
        raise Conflict(
            "not_awaiting_cosign",
            "the note does not await a co-signature (a draft, not a trainee's, or co-signed)",
            details={"current_version": note.version},
        )
    if note.version != seen_version:
        raise _version_conflict(note.version)
    if note.author_id == principal.person_id:
        raise Forbidden("cosign_by_author", "the note's author cannot co-sign it")
    if not principal.is_owner:
        supervisor_id = await db.scalar(
            in_workspace(User, principal.workspace_id)
            .where(User.id == note.author_id)
            .with_only_columns(User.supervisor_id)
        )
        if supervisor_id != principal.user.id:
            raise Forbidden(
                "not_a_supervisor",
                "only an owner or the author's supervisor can co-sign this note",
            )
    now = utc_now()
    note.cosign_status = CosignStatus.COSIGNED.value
    note.cosigned_by = principal.person_id
    note.cosigned_at = now
    note.cosign_attestation_version = attestation_version
    note.version = seen_version + 1
    note.updated_at = now
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "session.cosign",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id],
        details={
            "version": note.version,
            "attestation_version": attestation_version,
            "content_sha256": signing.content_hash(note),
            "author_id": str(note.author_id),
        },
    )
    return note


async def addenda(
    db: AsyncSession, workspace_id: uuid.UUID, notes: list[Any]
) -> dict[uuid.UUID, list[Row[Any]]]:
    """Each signed note's amendments, oldest first: the version each made, its author, time
    and reason (no query when every note is a draft)."""
    signed = [note.id for note in notes if note.status != NoteStatus.DRAFT.value]
    found: dict[uuid.UUID, list[Row[Any]]] = {note_id: [] for note_id in signed}
    if not signed:
        return found
    rows = await db.execute(
        # chart-wide: amendments of `notes`, which the caller just read (their charts checked)
        in_workspace(SessionNoteVersion, workspace_id)
        .where(SessionNoteVersion.session_id.in_(signed))
        .with_only_columns(
            SessionNoteVersion.session_id,
            (SessionNoteVersion.version + 1).label("version"),
            SessionNoteVersion.amended_by,
            SessionNoteVersion.amended_at,
            SessionNoteVersion.reason,
        )
        .order_by(SessionNoteVersion.session_id, SessionNoteVersion.version)
    )
    for row in rows:
        found[row.session_id].append(cast(Row[Any], row))
    return found


async def delete_note(db: AsyncSession, principal: Principal, note_id: uuid.UUID) -> None:
    """Soft delete: the note disappears from reads and lists until it is restored."""
    deleted_id = await db.scalar(
        access.charted(
            update(SessionNote).where(
                workspace_filter(SessionNote, principal.workspace_id),
                SessionNote.id == note_id,
                SessionNote.deleted_at.is_(None),
            ),
            principal,
            SessionNote,
        )
        .values(deleted_at=utc_now())
        .returning(SessionNote.id)
        .execution_options(synchronize_session=False)
    )
    if deleted_id is None:
        raise not_found("session note")
    await audit.record(
        db, principal.actor, "session.delete", resource_type=RESOURCE_TYPE, resource_ids=[note_id]
    )


async def restore_note(db: AsyncSession, principal: Principal, note_id: uuid.UUID) -> SessionNote:
    """Bring back a deleted note; a note that is not deleted is returned as it is."""
    note = await _notes.get(
        db,
        principal.workspace_id,
        note_id,
        include_deleted=True,
        lock=True,
        values=access.chart_values(principal),
    )
    restored = note.deleted_at is not None
    if restored:
        note.deleted_at = None
        note.updated_at = utc_now()
        await db.flush()
    await audit.record(
        db,
        principal.actor,
        "session.restore",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note.id],
        details={"restored": restored},
    )
    return note


async def list_versions(
    db: AsyncSession, principal: Principal, note_id: uuid.UUID, paging: Pagination
) -> tuple[list[SessionNoteVersion], int]:
    """The content each amendment replaced, newest first."""
    workspace_id = principal.workspace_id
    state = await _state(db, principal, note_id)
    if state is None or state.deleted_at is not None:
        raise not_found("session note")
    versions, total = await fetch_page(
        db,
        # chart-wide: versions have no client of their own; _state checked the note's chart
        in_workspace(SessionNoteVersion, workspace_id)
        .where(SessionNoteVersion.session_id == note_id)
        .order_by(SessionNoteVersion.version.desc()),
        paging,
    )
    await audit.record(
        db,
        principal.actor,
        "session.versions_read",
        resource_type=RESOURCE_TYPE,
        resource_ids=[note_id],
        details={"versions": [version.version for version in versions]},
    )
    return versions, total
