from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, DateTime, Index, String, Uuid, text
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


class AppointmentStatus(StrEnum):
    SCHEDULED = "scheduled"
    ATTENDED = "attended"
    CANCELLED = "cancelled"
    NO_SHOW = "no-show"


class Appointment(UUIDPrimaryKey, WorkspaceScoped, Timestamps, ExternalIdentity, Base):
    """A calendar entry. Times stay plain so the calendar can query ranges."""

    __tablename__ = "appointments"
    __table_args__ = (
        CheckConstraint("ends_at > starts_at", name="ends_after_start"),
        # The integrator's own id, unique in the practice (carevault.db.external).
        Index(
            "uq_appointments_workspace_external_id_bidx",
            "workspace_id",
            "external_id_bidx",
            unique=True,
        ),
        CheckConstraint(
            "status IN ('scheduled', 'attended', 'cancelled', 'no-show')", name="status"
        ),
        Index("ix_appointments_workspace_range", "workspace_id", "starts_at", "ends_at"),
        Index(
            "ix_appointments_workspace_clinician_range",
            "workspace_id",
            "clinician_id",
            "starts_at",
            "ends_at",
        ),
        Index(
            "ix_appointments_workspace_client_range",
            "workspace_id",
            "client_id",
            "starts_at",
            "ends_at",
        ),
        Index(
            "ix_appointments_workspace_series",
            "workspace_id",
            "series_id",
            postgresql_where=text("series_id IS NOT NULL"),
        ),
        # Lists that filter by change (updated_since, sort=updated_at; migration 0023).
        Index("ix_appointments_workspace_updated", "workspace_id", "updated_at", "id"),
        tenant_foreign_key("appointments", "client_id", "clients", ondelete="RESTRICT"),
        tenant_foreign_key("appointments", "clinician_id", "users", ondelete="RESTRICT"),
    )

    client_id: Mapped[uuid.UUID]
    # A user of the same practice (the key holds it): whose calendar the entry is on.
    clinician_id: Mapped[uuid.UUID]
    # A short label ("Room 2"), not PHI: plain so that overlaps per room can be queried.
    room: Mapped[str | None] = mapped_column(String(100))
    # The occurrences of one recurring booking share it; None for a single appointment.
    series_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(20), default=AppointmentStatus.SCHEDULED.value)
    location: Mapped[str | None] = mapped_column(EncryptedString())
    notes: Mapped[str | None] = mapped_column(EncryptedString())
