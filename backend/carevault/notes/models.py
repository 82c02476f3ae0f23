"""Therapy-session notes (SOAP). The table is `sessions`; the Python name says "note"
so it is never confused with a login session or a database session."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Index,
    Integer,
    SmallInteger,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedString
from carevault.db.base import (
    Base,
    Timestamps,
    UUIDPrimaryKey,
    WorkspaceScoped,
    tenant_foreign_key,
)
from carevault.db.external import ExternalIdentity


class NoteStatus(StrEnum):
    DRAFT = "draft"
    FINALIZED = "finalized"  # signed by its author, and locked


class CosignStatus(StrEnum):
    """Null when the author needed no co-signature (carevault.notes.signing)."""

    AWAITING = "awaiting"
    COSIGNED = "cosigned"


class SessionNote(UUIDPrimaryKey, WorkspaceScoped, Timestamps, ExternalIdentity, Base):
    __tablename__ = "sessions"
    __table_args__ = (
        CheckConstraint("status IN ('draft', 'finalized')", name="status"),
        # The integrator's own id, unique in the practice (carevault.db.external).
        Index(
            "uq_sessions_workspace_external_id_bidx",
            "workspace_id",
            "external_id_bidx",
            unique=True,
        ),
        CheckConstraint("duration_minutes > 0", name="duration_positive"),
        CheckConstraint("cosign_status IN ('awaiting', 'cosigned')", name="cosign_status"),
        Index("ix_sessions_workspace_client_date", "workspace_id", "client_id", "session_date"),
        Index("ix_sessions_workspace_author_status", "workspace_id", "author_id", "status"),
        Index(
            "ix_sessions_workspace_awaiting_cosign",
            "workspace_id",
            postgresql_where=text("cosign_status = 'awaiting'"),
        ),
        # Lists that filter by change (updated_since, sort=updated_at; migration 0023).
        Index("ix_sessions_workspace_updated", "workspace_id", "updated_at", "id"),
        tenant_foreign_key("sessions", "client_id", "clients", ondelete="RESTRICT"),
        tenant_foreign_key("sessions", "appointment_id", "appointments", ondelete="SET NULL"),
        tenant_foreign_key("sessions", "author_id", "users"),
        tenant_foreign_key("sessions", "signed_by", "users"),
        tenant_foreign_key("sessions", "cosigned_by", "users"),
    )

    client_id: Mapped[uuid.UUID]
    appointment_id: Mapped[uuid.UUID | None]
    session_date: Mapped[date] = mapped_column(Date)
    duration_minutes: Mapped[int] = mapped_column(Integer, default=50)
    status: Mapped[str] = mapped_column(String(20), default=NoteStatus.DRAFT.value)
    version: Mapped[int] = mapped_column(Integer, default=1)
    # Who wrote the note: its creator (migration 0020 set it for older notes).
    author_id: Mapped[uuid.UUID]
    # Signing is finalizing: `finalized_at` is when it was signed, by `signed_by`, who
    # attested the statement of `attestation_version` (carevault.notes.signing).
    finalized_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    signed_by: Mapped[uuid.UUID | None]
    attestation_version: Mapped[int | None] = mapped_column(SmallInteger)
    # Signed more than the practice's `late_entry_hours` after the session ended.
    late_entry: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    cosign_status: Mapped[str | None] = mapped_column(String(20))
    cosigned_by: Mapped[uuid.UUID | None]
    cosigned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cosign_attestation_version: Mapped[int | None] = mapped_column(SmallInteger)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A psychotherapy note (45 CFR 164.501): left out of the client's right-of-access export
    # (164.524(a)(1)(i)), which says how many were left out.
    psychotherapy_note: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )
    subjective: Mapped[str | None] = mapped_column(EncryptedString())
    objective: Mapped[str | None] = mapped_column(EncryptedString())
    assessment: Mapped[str | None] = mapped_column(EncryptedString())
    plan: Mapped[str | None] = mapped_column(EncryptedString())


class SessionNoteVersion(UUIDPrimaryKey, WorkspaceScoped, Base):
    """The content of a note as it was before an amendment."""

    __tablename__ = "session_versions"
    __table_args__ = (
        Index(
            "uq_session_versions_session_version",
            "workspace_id",
            "session_id",
            "version",
            unique=True,
        ),
        tenant_foreign_key("session_versions", "session_id", "sessions", ondelete="CASCADE"),
        tenant_foreign_key("session_versions", "amended_by", "users"),
    )

    session_id: Mapped[uuid.UUID]
    version: Mapped[int] = mapped_column(Integer)
    amended_by: Mapped[uuid.UUID | None]
    amended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    subjective: Mapped[str | None] = mapped_column(EncryptedString())
    objective: Mapped[str | None] = mapped_column(EncryptedString())
    assessment: Mapped[str | None] = mapped_column(EncryptedString())
    plan: Mapped[str | None] = mapped_column(EncryptedString())
    # Why the amendment was made (PHI, so encrypted); null for amendments made before
    # reasons were required (migration 0020).
    reason: Mapped[str | None] = mapped_column(EncryptedString())
