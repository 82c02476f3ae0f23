"""A client's whole record, as the right of access (45 CFR 164.524) gives it to them: the
client, their appointments, their notes with every version and amendment, and the
signatures. Psychotherapy notes (164.501) are left out and counted, never read. Reading the
record follows the chart read's rules (carevault.clients.access) and is one audit event per
kind of record, naming every record disclosed."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.audit import service as audit
from carevault.auth.models import User
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients import service as client_service
from carevault.clients.models import Client
from carevault.core.clock import utc_now
from carevault.core.errors import not_found
from carevault.db.scoping import in_workspace
from carevault.notes.models import SessionNote, SessionNoteVersion
from carevault.workspaces.models import Workspace

ExportFormat = Literal["pdf", "fhir"]
# Which provision leaves psychotherapy notes out; the export states it with the count.
PSYCHOTHERAPY_EXCLUSION = (
    "psychotherapy notes (45 CFR 164.501) are excluded from the right of access "
    "(45 CFR 164.524(a)(1)(i))"
)


@dataclass
class NoteRecord:
    """A note and the contents its amendments replaced, oldest first."""

    note: SessionNote
    versions: list[SessionNoteVersion] = field(default_factory=list)


@dataclass
class ClientRecord:
    practice_id: uuid.UUID
    practice_name: str
    client: Client
    appointments: list[Appointment]
    notes: list[NoteRecord]
    psychotherapy_notes_excluded: int
    staff: dict[uuid.UUID, str]
    exported_at: datetime

    def staff_name(self, user_id: uuid.UUID | None) -> str:
        if user_id is None:
            return "unknown"
        return self.staff.get(user_id) or str(user_id)


async def assemble(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> ClientRecord:
    """The client's record, without auditing it (`export_record` audits)."""
    workspace_id = principal.workspace_id
    client = await db.scalar(
        access.charted(
            in_workspace(Client, workspace_id).where(Client.id == client_id), principal, Client
        )
    )
    if client is None:
        await client_service.refuse_outside_care_team(db, principal, client_id)
        raise not_found("client")
    practice_name = await db.scalar(select(Workspace.name).where(Workspace.id == workspace_id))
    appointments = list(
        await db.scalars(
            # chart-wide: the client's chart was checked above
            in_workspace(Appointment, workspace_id)
            .where(Appointment.client_id == client_id)
            .order_by(Appointment.starts_at, Appointment.id)
        )
    )
    # chart-wide: the client's chart was checked above
    notes_of_client = in_workspace(SessionNote, workspace_id).where(
        SessionNote.client_id == client_id, SessionNote.deleted_at.is_(None)
    )
    excluded = await db.scalar(
        notes_of_client.where(SessionNote.psychotherapy_note.is_(True)).with_only_columns(
            func.count()
        )
    )
    notes = [
        NoteRecord(note)
        for note in await db.scalars(
            notes_of_client.where(SessionNote.psychotherapy_note.is_(False)).order_by(
                SessionNote.session_date, SessionNote.created_at, SessionNote.id
            )
        )
    ]
    by_id = {record.note.id: record for record in notes}
    if by_id:
        for version in await db.scalars(
            # chart-wide: versions of the notes read above
            in_workspace(SessionNoteVersion, workspace_id)
            .where(SessionNoteVersion.session_id.in_(list(by_id)))
            .order_by(SessionNoteVersion.session_id, SessionNoteVersion.version)
        ):
            by_id[version.session_id].versions.append(version)
    staff_ids: set[uuid.UUID] = {a.clinician_id for a in appointments}
    for record in notes:
        note = record.note
        staff_ids |= {note.author_id, note.signed_by, note.cosigned_by} - {None}  # type: ignore[arg-type]
        staff_ids |= {v.amended_by for v in record.versions if v.amended_by is not None}
    staff: dict[uuid.UUID, str] = {}
    if staff_ids:
        rows = await db.execute(
            in_workspace(User, workspace_id)
            .where(User.id.in_(staff_ids))
            .with_only_columns(User.id, User.display_name)
        )
        staff = {row.id: row.display_name for row in rows}
    return ClientRecord(
        practice_id=workspace_id,
        practice_name=practice_name or "",
        client=client,
        appointments=appointments,
        notes=notes,
        psychotherapy_notes_excluded=int(excluded or 0),
        staff=staff,
        exported_at=utc_now(),
    )


async def export_record(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, export_format: ExportFormat
) -> ClientRecord:
    """The record, audited: `client.export` names the client, and `session.export` and
    `appointment.export` the notes and appointments it carries (ids and counts, no PHI), so
    each shows in the access history of what it disclosed."""
    record = await assemble(db, principal, client_id)
    details = {
        "format": export_format,
        "notes": len(record.notes),
        "versions": sum(len(r.versions) for r in record.notes),
        "appointments": len(record.appointments),
        "psychotherapy_notes_excluded": record.psychotherapy_notes_excluded,
    } | await access.glass_flag(db, principal, [client_id])
    await audit.record(
        db,
        principal.actor,
        "client.export",
        resource_type=client_service.RESOURCE_TYPE,
        resource_ids=[client_id],
        details=details,
    )
    if record.notes:
        await audit.record(
            db,
            principal.actor,
            "session.export",
            resource_type="session",
            resource_ids=[r.note.id for r in record.notes],
            details={"client_id": str(client_id), "format": export_format},
        )
    if record.appointments:
        await audit.record(
            db,
            principal.actor,
            "appointment.export",
            resource_type="appointment",
            resource_ids=[a.id for a in record.appointments],
            details={"client_id": str(client_id), "format": export_format},
        )
    return record
