"""Bulk export jobs (FHIR Bulk Data's async pattern): started by an owner, written by a
worker in the app process, polled, downloaded, cancelled, and deleted after the retention
period.

The parts are files under CAREVAULT_EXPORT_DIR/<job id>/, sealed in chunks with AES-GCM
(carevault.crypto.stream) under a key of the job's own, which the job's row keeps sealed
under the practice's data key: the files hold PHI, and a copy of the directory alone (a
backup, a stolen disk) opens nothing; shredding the practice makes them unreadable too. A
part is written to a temporary name and renamed once complete, then recorded; the job's
lease says a worker is on it, and a job whose lease lapsed (its process stopped) is taken
up again by the next poll, after its last recorded part.

Every step is audited with ids and counts, never content: `export.start`,
`export.download` (per file), `export.cancel`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from carevault.audit import service as audit
from carevault.auth.principal import Principal
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, Invalid, not_found
from carevault.crypto.stream import SealedWriter, new_file_key, open_sealed
from carevault.db.replica import ReadsAfter, ReplicaRouter
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.exports import bulk
from carevault.exports.models import UNFINISHED, ExportFile, ExportJob, ExportStatus
from carevault.workspaces.keys import load_workspace_keys

logger = logging.getLogger(__name__)

RESOURCE_TYPE = "export_job"
LEASE = timedelta(seconds=60)
# One running export per practice at a time (each reads the whole practice).
_STATUS_FIELDS = ("status", "progress", "error", "completed_at", "expires_at")


def job_dir(export_dir: Path, job_id: uuid.UUID) -> Path:
    return export_dir / str(job_id)


def _binding(job_id: uuid.UUID, resource_type: str, part: int) -> bytes:
    return f"carevault-export:{job_id}:{bulk.part_name(resource_type, part)}".encode()


def parse_types(value: str | None) -> tuple[str, ...]:
    """`_type`: a comma-separated subset of the exported types; all of them by default."""
    if not value:
        return bulk.RESOURCE_TYPES
    asked = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in asked if name not in bulk.RESOURCE_TYPES]
    if unknown or not asked:
        raise Invalid(
            "unsupported_resource_type",
            f"_type may name only: {', '.join(bulk.RESOURCE_TYPES)}",
            details={"field": "query._type", "unknown": unknown},
        )
    return tuple(name for name in bulk.RESOURCE_TYPES if name in asked)


async def start(db: AsyncSession, principal: Principal, types: tuple[str, ...]) -> ExportJob:
    """A queued job (the caller then launches `work`); 409 `export_in_progress` while
    another of the practice's exports is unfinished."""
    running = await db.scalar(
        in_workspace(ExportJob, principal.workspace_id)
        .where(ExportJob.status.in_(UNFINISHED))
        .with_only_columns(ExportJob.id)
        .limit(1)
    )
    if running is not None:
        raise Conflict(
            "export_in_progress",
            "an export of this practice is already running; poll or cancel it first",
            details={"job_id": str(running)},
        )
    job = ExportJob(
        workspace_id=principal.workspace_id,
        # A service account is no user (requested_by references users): its token is
        # named by the job's audit events instead.
        requested_by=principal.actor.user_id,
        status=ExportStatus.QUEUED.value,
        resource_types=list(types),
        file_key=new_file_key().hex(),
        progress={},
    )
    db.add(job)
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "export.start",
        resource_type=RESOURCE_TYPE,
        resource_ids=[job.id],
        details={"types": list(types)},
    )
    return job


async def find(db: AsyncSession, principal: Principal, job_id: uuid.UUID) -> ExportJob:
    job = await db.scalar(
        in_workspace(ExportJob, principal.workspace_id).where(ExportJob.id == job_id)
    )
    if job is None:
        raise not_found("export")
    return job


async def files(db: AsyncSession, workspace_id: uuid.UUID, job_id: uuid.UUID) -> list[ExportFile]:
    return list(
        await db.scalars(
            in_workspace(ExportFile, workspace_id)
            .where(ExportFile.job_id == job_id)
            .order_by(ExportFile.resource_type, ExportFile.part)
        )
    )


def needs_worker(job: ExportJob) -> bool:
    """Unfinished, and no worker holds it (never started, or its process stopped)."""
    lease = job.lease_until
    return job.status in UNFINISHED and (lease is None or lease < utc_now())


async def cancel(
    db: AsyncSession, principal: Principal, job_id: uuid.UUID, export_dir: Path
) -> None:
    """Stop the job and delete it with its files, finished or not (a running worker finds
    its row gone at its next part, and stops)."""
    await find(db, principal, job_id)
    await db.execute(
        delete(ExportJob).where(
            workspace_filter(ExportJob, principal.workspace_id), ExportJob.id == job_id
        )
    )
    shutil.rmtree(job_dir(export_dir, job_id), ignore_errors=True)
    await audit.record(
        db, principal.actor, "export.cancel", resource_type=RESOURCE_TYPE, resource_ids=[job_id]
    )


async def open_file(
    db: AsyncSession,
    principal: Principal,
    job_id: uuid.UUID,
    resource_type: str,
    part: int,
    export_dir: Path,
) -> Iterator[bytes]:
    """A finished part's NDJSON, opened chunk by chunk (never whole in memory); audited."""
    job = await find(db, principal, job_id)
    found = await db.scalar(
        in_workspace(ExportFile, principal.workspace_id).where(
            ExportFile.job_id == job_id,
            ExportFile.resource_type == resource_type,
            ExportFile.part == part,
        )
    )
    path = job_dir(export_dir, job_id) / bulk.part_name(resource_type, part)
    if found is None or job.status == ExportStatus.CANCELLED.value or not path.exists():
        raise not_found("export file")
    await audit.record(
        db,
        principal.actor,
        "export.download",
        resource_type=RESOURCE_TYPE,
        resource_ids=[job_id],
        details={"type": resource_type, "part": part, "count": found.count},
    )
    key = bytes.fromhex(job.file_key)
    binding = _binding(job_id, resource_type, part)

    def chunks() -> Iterator[bytes]:
        with path.open("rb") as source:
            yield from open_sealed(source, key, binding)

    return chunks()


class _SealedPart:
    def __init__(self, directory: Path, name: str, key: bytes, binding: bytes) -> None:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._final = directory / name
        self._temporary = directory / f".{name}.partial"
        self._file = self._temporary.open("wb")
        os.chmod(self._temporary, 0o600)
        self._sealer = SealedWriter(self._file, key, binding)

    def write(self, data: bytes) -> None:
        self._sealer.write(data)

    def close(self) -> int:
        self._sealer.close()
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self._temporary, self._final)
        return self._sealer.plaintext_bytes

    def discard(self) -> None:
        self._file.close()
        self._temporary.unlink(missing_ok=True)


class JobStore:
    """Parts of one job: sealed files, recorded in `export_files` as each is finished."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        job: ExportJob,
        export_dir: Path,
    ) -> None:
        self._sessions = sessions
        self._job_id = job.id
        self._workspace_id = job.workspace_id
        self._key = bytes.fromhex(job.file_key)
        self._directory = job_dir(export_dir, job.id)
        self.progress: dict[str, int] = dict(job.progress or {})

    async def finished(self) -> list[bulk.Part]:
        async with self._sessions() as db:
            recorded = await files(db, self._workspace_id, self._job_id)
        return [
            bulk.Part(f.resource_type, f.part, f.count, f.size_bytes, f.last_key) for f in recorded
        ]

    def open(self, resource_type: str, part: int) -> bulk.PartWriter:
        name = bulk.part_name(resource_type, part)
        return _SealedPart(
            self._directory, name, self._key, _binding(self._job_id, resource_type, part)
        )

    async def record(self, part: bulk.Part) -> bool:
        self.progress[part.resource_type] = self.progress.get(part.resource_type, 0) + part.count
        async with self._sessions() as db, db.begin():
            still = await self._extend(db)
            if still:
                db.add(
                    ExportFile(
                        workspace_id=self._workspace_id,
                        job_id=self._job_id,
                        resource_type=part.resource_type,
                        part=part.part,
                        count=part.count,
                        size_bytes=part.size_bytes,
                        last_key=part.last_key,
                    )
                )
        return still

    async def heartbeat(self) -> bool:
        async with self._sessions() as db, db.begin():
            return await self._extend(db)

    async def _extend(self, db: AsyncSession) -> bool:
        """Extend the lease and save the progress, unless the job was cancelled."""
        kept = await db.scalar(
            update(ExportJob)
            .where(
                workspace_filter(ExportJob, self._workspace_id),
                ExportJob.id == self._job_id,
                ExportJob.status == ExportStatus.RUNNING.value,
            )
            .values(lease_until=utc_now() + LEASE, progress=self.progress, updated_at=utc_now())
            .returning(ExportJob.id)
        )
        return kept is not None


async def _claim(
    sessions: async_sessionmaker[AsyncSession], workspace_id: uuid.UUID, job_id: uuid.UUID
) -> ExportJob | None:
    """Take the job if no live worker holds it (one UPDATE: two pollers never both win)."""
    async with sessions() as db, db.begin():
        await load_workspace_keys(db, workspace_id)
        claimed = await db.scalar(
            update(ExportJob)
            .where(
                workspace_filter(ExportJob, workspace_id),
                ExportJob.id == job_id,
                ExportJob.status.in_(UNFINISHED),
                or_(ExportJob.lease_until.is_(None), ExportJob.lease_until < utc_now()),
            )
            .values(status=ExportStatus.RUNNING.value, lease_until=utc_now() + LEASE)
            .returning(ExportJob.id)
        )
        if claimed is None:
            return None
        return await db.scalar(
            in_workspace(ExportJob, workspace_id)
            .where(ExportJob.id == job_id)
            .execution_options(populate_existing=True)
        )


async def work(
    sessions: async_sessionmaker[AsyncSession],
    workspace_id: uuid.UUID,
    job_id: uuid.UUID,
    export_dir: Path,
    retention: timedelta,
    replica: ReplicaRouter | None = None,
) -> None:
    """Write the job's parts (after those already recorded) and mark it completed; failures
    mark it failed with the error's kind only (never a message that could hold PHI). With
    a `replica`, the pages are read there once it has replayed the primary's position after
    the claim (every write committed before the export was asked for); the job's own rows
    are written on the primary."""
    job = await _claim(sessions, workspace_id, job_id)
    if job is None:
        return
    store = JobStore(sessions, job, export_dir)
    try:
        reads = await ReadsAfter.starting_now(replica)
        await reads.settle()
        complete = await bulk.run(sessions, workspace_id, job.resource_types, store, reads=reads)
    except Exception as exc:  # a worker must record its failure, whatever it is
        logger.exception("export job failed", extra={"job_id": str(job_id)})
        await _finish(
            sessions,
            workspace_id,
            job_id,
            ExportStatus.FAILED,
            store,
            retention,
            error=type(exc).__name__,
        )
        return
    if complete:
        await _finish(sessions, workspace_id, job_id, ExportStatus.COMPLETED, store, retention)


async def _finish(
    sessions: async_sessionmaker[AsyncSession],
    workspace_id: uuid.UUID,
    job_id: uuid.UUID,
    status: ExportStatus,
    store: JobStore,
    retention: timedelta,
    error: str | None = None,
) -> None:
    now = utc_now()
    async with sessions() as db, db.begin():
        await db.execute(
            update(ExportJob)
            .where(
                workspace_filter(ExportJob, workspace_id),
                ExportJob.id == job_id,
                ExportJob.status == ExportStatus.RUNNING.value,
            )
            .values(
                status=status.value,
                progress=store.progress,
                error=error,
                lease_until=None,
                completed_at=now,
                expires_at=now + retention,
                updated_at=now,
            )
        )


_RUNNING: set[asyncio.Task[None]] = set()


def launch(
    sessions: async_sessionmaker[AsyncSession],
    job: ExportJob,
    export_dir: Path,
    retention: timedelta,
    replica: ReplicaRouter | None = None,
) -> None:
    """Run `work` in the background of this process (kept referenced until it ends)."""
    task = asyncio.get_running_loop().create_task(
        work(sessions, job.workspace_id, job.id, export_dir, retention, replica)
    )
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)


async def purge_expired(sessions: async_sessionmaker[AsyncSession], export_dir: Path) -> int:
    """Delete the jobs past their retention, and their files; how many. Maintenance across
    practices: it names jobs only by id."""
    async with sessions() as db, db.begin():
        expired = list(
            await db.scalars(
                # unscoped: retention holds for every practice; ids of finished jobs only
                select(ExportJob.id).where(
                    ExportJob.status.not_in(UNFINISHED), ExportJob.expires_at < utc_now()
                )
            )
        )
        if expired:
            # unscoped: the expired jobs found above, by id
            await db.execute(delete(ExportJob).where(ExportJob.id.in_(expired)))
    for job_id in expired:
        shutil.rmtree(job_dir(export_dir, job_id), ignore_errors=True)
    return len(expired)


def status_of(job: ExportJob) -> dict[str, Any]:
    """Counts only (no PHI): the X-Progress header and the CLI's display."""
    return {name: getattr(job, name) for name in _STATUS_FIELDS}
