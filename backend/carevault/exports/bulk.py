"""A practice's whole data as NDJSON, one file part per `PART_RECORDS` records of a FHIR
resource type (FHIR Bulk Data), for leaving CareVault for another system.

Memory stays flat in the practice's size: every type is read by keyset pages of
`PAGE_ROWS` rows, each page in a short transaction of its own, mapped, written and dropped.
A part is finished only at a row boundary and recorded with the sort key of its last row, so
an export that stopped (a restart, a crash) resumes after its last finished part. Where the
parts go is the caller's `PartStore`: sealed files of an export job (carevault.exports.jobs)
or plain files in an operator's directory (`carevault export`).

With a read replica (carevault.db.replica) the pages are read from it once it has replayed
the primary's position at the export's start (`ReadsAfter`), page by page: a page the replica
fails is read again from the primary.

A bulk export is the practice's own data, so psychotherapy notes are in it, labelled
(`meta.security` PSYTHPN); the right of access (carevault.exports.record) leaves them out.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Select, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from carevault.appointments.models import Appointment
from carevault.auth.models import User
from carevault.clients.models import Client
from carevault.db.replica import ReadsAfter
from carevault.db.routing import READ_BIND, RoutingSession
from carevault.db.scoping import in_workspace
from carevault.exports import fhir
from carevault.fhir import mapping
from carevault.notes.models import SessionNote, SessionNoteVersion
from carevault.workspaces.keys import load_workspace_keys
from carevault.workspaces.models import Workspace

# In this order: what is referred to comes before what refers to it.
RESOURCE_TYPES = (
    "Organization",
    "Practitioner",
    "Patient",
    "Appointment",
    "Encounter",
    "DocumentReference",
    "Provenance",
)
PAGE_ROWS = 500
PART_RECORDS = 10_000
NDJSON = "application/fhir+ndjson"


@dataclass(frozen=True, slots=True)
class Part:
    resource_type: str
    part: int
    count: int
    size_bytes: int
    last_key: str


class PartWriter(Protocol):
    def write(self, data: bytes) -> None: ...

    def close(self) -> int:
        """Finish the part (durably); its size in bytes as downloaded."""
        ...

    def discard(self) -> None: ...


class PartStore(Protocol):
    async def finished(self) -> list[Part]: ...

    def open(self, resource_type: str, part: int) -> PartWriter: ...

    async def record(self, part: Part) -> bool:
        """Keep the finished part; False when the export should stop (cancelled)."""
        ...

    async def heartbeat(self) -> bool:
        """Called between pages; False when the export should stop."""
        ...


Progress = Callable[[str, int], None]


def part_name(resource_type: str, part: int) -> str:
    return f"{resource_type}-{part:05d}.ndjson"


def _after(statement: Select[Any], model: Any, after: str | None) -> Select[Any]:
    if after:
        statement = statement.where(model.id > uuid.UUID(after))
    return statement.order_by(model.id).limit(PAGE_ROWS)


async def _staff(db: AsyncSession, workspace_id: uuid.UUID) -> dict[uuid.UUID, str]:
    """Display names of the practice's users (staff: a practice has tens, not thousands)."""
    rows = await db.execute(
        in_workspace(User, workspace_id).with_only_columns(User.id, User.display_name)
    )
    return {row.id: row.display_name for row in rows}


async def _page(
    db: AsyncSession, workspace_id: uuid.UUID, resource_type: str, after: str | None
) -> list[tuple[str, list[fhir.FhirResource]]]:
    """One page of (sort key, resources) after `after`, for `resource_type`."""
    if resource_type == "Organization":
        if after:
            return []
        space = await db.scalar(select(Workspace).where(Workspace.id == workspace_id))
        return [(str(workspace_id), [mapping.organization(space)])] if space else []
    if resource_type == "Practitioner":
        users = await db.scalars(_after(in_workspace(User, workspace_id), User, after))
        return [(str(u.id), [mapping.practitioner(u)]) for u in users]
    if resource_type == "Patient":
        clients = await db.scalars(_after(in_workspace(Client, workspace_id), Client, after))
        return [(str(c.id), [fhir.patient(c)]) for c in clients]
    if resource_type == "Appointment":
        staff = await _staff(db, workspace_id)
        booked = await db.scalars(
            _after(in_workspace(Appointment, workspace_id), Appointment, after)
        )
        return [(str(a.id), [fhir.appointment(a, staff, None)]) for a in booked]
    notes_statement = in_workspace(SessionNote, workspace_id).where(
        SessionNote.deleted_at.is_(None)
    )
    if resource_type == "Provenance":
        notes_statement = notes_statement.where(SessionNote.finalized_at.is_not(None))
    notes = list(await db.scalars(_after(notes_statement, SessionNote, after)))
    if resource_type == "Encounter":
        return [(str(n.id), [fhir.note_resources_encounter(n)]) for n in notes]
    if resource_type == "Provenance":
        return [(str(n.id), mapping.provenances(n)) for n in notes]
    versions: dict[uuid.UUID, list[SessionNoteVersion]] = {n.id: [] for n in notes}
    if notes:
        for version in await db.scalars(
            in_workspace(SessionNoteVersion, workspace_id)
            .where(SessionNoteVersion.session_id.in_(list(versions)))
            .order_by(SessionNoteVersion.session_id, SessionNoteVersion.version)
        ):
            versions[version.session_id].append(version)
    return [(str(n.id), fhir.document_references(n, versions[n.id])) for n in notes]


async def pages(
    sessions: async_sessionmaker[AsyncSession],
    workspace_id: uuid.UUID,
    resource_type: str,
    after: str | None,
    reads: ReadsAfter | None = None,
) -> AsyncIterator[list[tuple[str, list[fhir.FhirResource]]]]:
    """Pages until the type is exhausted, each read in a transaction of its own (nothing
    held between pages: no long snapshot, no growing identity map), from the replica when
    `reads` allows it."""
    while True:
        page = await _read_page(sessions, workspace_id, resource_type, after, reads)
        if not page:
            return
        yield page
        after = page[-1][0]


async def _read_page(
    sessions: async_sessionmaker[AsyncSession],
    workspace_id: uuid.UUID,
    resource_type: str,
    after: str | None,
    reads: ReadsAfter | None,
) -> list[tuple[str, list[fhir.FhirResource]]]:
    replica = reads.bind() if reads is not None else None
    if replica is not None and reads is not None:
        try:
            async with sessions() as db, db.begin():
                if isinstance(db.sync_session, RoutingSession):
                    db.sync_session.info[READ_BIND] = replica
                await load_workspace_keys(db, workspace_id)
                return await _page(db, workspace_id, resource_type, after)
        except (DBAPIError, OSError, TimeoutError) as exc:
            reads.failed(exc)  # the same page again, from the primary
    async with sessions() as db, db.begin():
        await load_workspace_keys(db, workspace_id)
        return await _page(db, workspace_id, resource_type, after)


def _lines(resources: Iterable[fhir.FhirResource]) -> bytes:
    return b"".join(
        json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" for r in resources
    )


async def run(
    sessions: async_sessionmaker[AsyncSession],
    workspace_id: uuid.UUID,
    resource_types: Iterable[str],
    store: PartStore,
    progress: Progress | None = None,
    reads: ReadsAfter | None = None,
) -> bool:
    """Write every type's parts after those already finished; True when all are written,
    False when the store asked to stop. `reads`: where the pages may be read (a replica)."""
    done = await store.finished()
    for resource_type in resource_types:
        written = sorted(
            (p for p in done if p.resource_type == resource_type), key=lambda p: p.part
        )
        after = written[-1].last_key if written else None
        part = written[-1].part + 1 if written else 1
        if progress is not None:
            progress(resource_type, sum(p.count for p in written))
        writer: PartWriter | None = None
        count = 0
        last_key = ""
        beat = time.monotonic()
        try:
            async for page in pages(sessions, workspace_id, resource_type, after, reads):
                for key, resources in page:
                    if writer is None:
                        writer = store.open(resource_type, part)
                    writer.write(_lines(resources))
                    count += len(resources)
                    last_key = key
                    if progress is not None:
                        progress(resource_type, len(resources))
                    if count >= PART_RECORDS:
                        if not await _finish(store, writer, resource_type, part, count, last_key):
                            return False
                        writer, count, part = None, 0, part + 1
                if time.monotonic() - beat > 10:
                    beat = time.monotonic()
                    if not await store.heartbeat():
                        return False
            if writer is not None and count:
                if not await _finish(store, writer, resource_type, part, count, last_key):
                    return False
                writer = None
        finally:
            if writer is not None:
                writer.discard()
    return True


async def _finish(
    store: PartStore, writer: PartWriter, resource_type: str, part: int, count: int, key: str
) -> bool:
    size = writer.close()
    return await store.record(Part(resource_type, part, count, size, key))
