"""Bulk exports of a practice (FHIR Bulk Data): a job and the NDJSON parts it has written."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    Index,
    Integer,
    String,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedString
from carevault.db.base import (
    Base,
    Timestamps,
    UUIDPrimaryKey,
    WorkspaceScoped,
    tenant_foreign_key,
)


class ExportStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


UNFINISHED = (ExportStatus.QUEUED.value, ExportStatus.RUNNING.value)


class ExportJob(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    """One bulk export. `lease_until`: while in the future, a worker is writing it; a
    running job whose lease lapsed (its process stopped) is resumed from its last part."""

    __tablename__ = "export_jobs"
    __table_args__ = (
        CheckConstraint(
            "status IN ('queued', 'running', 'completed', 'failed', 'cancelled')", name="status"
        ),
        # The jobs a poll or a purge looks for.
        Index(
            "ix_export_jobs_unfinished",
            "status",
            postgresql_where=text("status IN ('queued', 'running')"),
        ),
        tenant_foreign_key("export_jobs", "requested_by", "users", ondelete="SET NULL"),
    )

    requested_by: Mapped[uuid.UUID | None]
    status: Mapped[str] = mapped_column(String(16), default=ExportStatus.QUEUED.value)
    resource_types: Mapped[list[str]] = mapped_column(ARRAY(String(40)))
    # The key the job's files are sealed under (hex), itself sealed under the practice's key.
    file_key: Mapped[str] = mapped_column(EncryptedString())
    # Per resource type: records written so far (no PHI).
    progress: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    error: Mapped[str | None] = mapped_column(String(200))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ExportFile(UUIDPrimaryKey, WorkspaceScoped, Base):
    """A finished part: `count` records of one type, the last one's sort key `last_key`
    (where the next part starts)."""

    __tablename__ = "export_files"
    __table_args__ = (
        Index(
            "uq_export_files_job_type_part",
            "workspace_id",
            "job_id",
            "resource_type",
            "part",
            unique=True,
        ),
        tenant_foreign_key("export_files", "job_id", "export_jobs", ondelete="CASCADE"),
    )

    job_id: Mapped[uuid.UUID]
    resource_type: Mapped[str] = mapped_column(String(40))
    part: Mapped[int] = mapped_column(Integer)
    count: Mapped[int] = mapped_column(Integer)
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    last_key: Mapped[str] = mapped_column(String(80))
