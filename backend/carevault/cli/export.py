"""`carevault export`: a practice's whole data as NDJSON files in a directory, for an
operator moving it to another system; `--resume` continues a stopped export. With
CAREVAULT_READ_DATABASE_URL set, its pages are read from the replica (carevault.db.replica)."""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_engine,
    run_async,
)

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from carevault.config import Settings
    from carevault.db.replica import ReplicaRouter


class ExportProgress:
    """Records written per resource type, their rate and the time left (from the counts of
    the rows each type is made of); a table on a terminal, a line every few seconds
    otherwise. Counts only: nothing here sees a record's content."""

    def __init__(self, expected: dict[str, int], *, interval: float = 5.0) -> None:
        self.expected = expected
        self.written = dict.fromkeys(expected, 0)
        self.started = time.monotonic()
        self.interval = interval
        self._last_line = self.started
        self._live: Any = None
        self._progress: Any = None
        self._tasks: dict[str, Any] = {}

    def __enter__(self) -> ExportProgress:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description:<18}"),
                BarColumn(),
                MofNCompleteColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self._progress.__enter__()
            for name, total in self.expected.items():
                self._tasks[name] = self._progress.add_task(name, total=max(total, 1))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
        self._line(force=True)

    def __call__(self, resource_type: str, count: int) -> None:
        self.written[resource_type] = self.written.get(resource_type, 0) + count
        if self._progress is not None:
            self._progress.update(self._tasks[resource_type], advance=count)
        else:
            self._line()

    @property
    def rate(self) -> float:
        return sum(self.written.values()) / max(time.monotonic() - self.started, 1e-6)

    def _line(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self._progress is not None or (not force and now - self._last_line < self.interval):
            return
        self._last_line = now
        done = sum(self.written.values())
        left = max(sum(self.expected.values()) - done, 0)
        eta = left / self.rate if self.rate else 0.0
        counts = ", ".join(f"{name} {count}" for name, count in self.written.items() if count)
        typer.echo(
            f"{counts or 'starting'}; {self.rate:,.0f} records/s; about {eta:,.0f} s left",
            err=True,
        )


@friendly_errors
def export(
    workspace: Annotated[str, typer.Option(help="The workspace (practice) to export")],
    output: Annotated[Path, typer.Option(help="The directory the NDJSON files go to")],
    resume: Annotated[
        bool, typer.Option(help="Continue the export already in OUTPUT after its last file")
    ] = False,
) -> None:
    """Export a practice's whole data as FHIR R4 NDJSON (one file per 10,000 records of a
    resource type, and manifest.json), as `GET /fhir/R4/$export` writes it. The files hold
    PHI in the clear: write them only where they are protected. Memory stays flat whatever
    the practice's size; an interrupted export continues with --resume. With
    CAREVAULT_READ_DATABASE_URL set, the records are read from the replica once it has
    replayed the primary's position at the start (else from the primary)."""
    from sqlalchemy import func, select

    from carevault.audit.service import Actor, record
    from carevault.core.clock import utc_now
    from carevault.db.engine import session_factory
    from carevault.db.replica import ReadsAfter
    from carevault.exports import bulk, directory
    from carevault.fhir.mapping import instant
    from carevault.runtime import start_key_ring
    from carevault.workspaces.service import get_by_name

    settings = load_settings()
    url = database_url_for(settings)
    manager = start_key_ring(settings)

    async def run() -> tuple[bool, float]:
        async with (
            one_off_engine(url, pool_size=2) as engine,
            read_replica(settings, engine) as replica,
        ):
            sessions = session_factory(engine, routes_reads=replica is not None)
            async with sessions() as db:
                space = await get_by_name(db, workspace)
                if space is None:
                    raise fail(f"no workspace named {workspace!r}")
                expected = await estimated_counts(db, space.id, func, select)
            try:
                store = directory.DirectoryStore(output, str(space.id), resume=resume)
            except (FileExistsError, FileNotFoundError) as exc:
                raise fail(str(exc)) from None
            started = time.monotonic()
            # With CAREVAULT_READ_DATABASE_URL, the pages come from the replica once it has
            # replayed the primary's position now (else, and page by page, the primary).
            reads = await ReadsAfter.starting_now(replica)
            await reads.settle()
            with ExportProgress(expected) as progress:
                complete = await bulk.run(
                    sessions, space.id, bulk.RESOURCE_TYPES, store, progress, reads=reads
                )
            if replica is not None:
                counts = replica.counts
                typer.echo(
                    f"Pages read from the replica: {counts.export_pages_replica}, "
                    f"from the primary: {counts.export_pages_primary}.",
                    err=True,
                )
            store.write_manifest(instant(utc_now()))
            async with sessions() as db, db.begin():
                await record(
                    db,
                    Actor(space.id),
                    "export.cli",
                    resource_type="workspace",
                    resource_ids=[space.id],
                    details={"resumed": resume, "records": dict(progress.written)},
                )
            return complete, time.monotonic() - started

    try:
        complete, elapsed = run_async(run())
    finally:
        manager.stop()
    if not complete:
        raise fail("the export stopped before the end; run it again with --resume", code=1)
    typer.echo(
        f"Exported {workspace!r} to {output} in {elapsed:.1f} s (manifest.json lists the files)."
    )


@asynccontextmanager
async def read_replica(
    settings: Settings, primary: AsyncEngine
) -> AsyncIterator[ReplicaRouter | None]:
    """A replica router checking CAREVAULT_READ_DATABASE_URL in the background for the
    command's length (carevault.db.replica), or None without one."""
    if not settings.read_database_url:
        yield None
        return
    from carevault.db.replica import ReplicaRouter

    async with one_off_engine(settings.read_database_url, pool_size=2) as replica_engine:
        router = ReplicaRouter(
            primary,
            replica_engine,
            max_lag_seconds=settings.read_replica_max_lag_seconds,
            read_your_writes_seconds=settings.read_your_writes_seconds,
            interval=settings.read_replica_check_interval_seconds,
        )
        router.start()
        try:
            yield router
        finally:
            await router.stop()


async def estimated_counts(db: Any, workspace_id: Any, func: Any, select: Any) -> dict[str, int]:
    """How many records each type will have (for the time left): counts of the rows, no PHI."""
    from carevault.appointments.models import Appointment
    from carevault.auth.models import User
    from carevault.clients.models import Client
    from carevault.db.scoping import in_workspace
    from carevault.notes.models import SessionNote, SessionNoteVersion

    async def count(statement: Any) -> int:
        return int(await db.scalar(statement.with_only_columns(func.count())) or 0)

    notes = in_workspace(SessionNote, workspace_id).where(SessionNote.deleted_at.is_(None))
    note_count = await count(notes)
    versions = await count(in_workspace(SessionNoteVersion, workspace_id))
    return {
        "Organization": 1,
        "Practitioner": await count(in_workspace(User, workspace_id)),
        "Patient": await count(in_workspace(Client, workspace_id)),
        "Appointment": await count(in_workspace(Appointment, workspace_id)),
        "Encounter": note_count,
        "DocumentReference": note_count + versions,
        "Provenance": await count(notes.where(SessionNote.finalized_at.is_not(None)))
        + await count(notes.where(SessionNote.cosigned_at.is_not(None))),
    }
