from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedString
from carevault.db.base import Base, Timestamps, UUIDPrimaryKey, WorkspaceScoped


class AppointmentStatus(StrEnum):
    SCHEDULED = "scheduled"
    ATTENDED = "attended"
    CANCELLED = "cancelled"
    NO_SHOW = "no-show"


class Appointment(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    """A calendar entry. Times stay plain so the calendar can query ranges."""

    __tablename__ = "appointments"
    __table_args__ = (
        CheckConstraint("ends_at > starts_at", name="ends_after_start"),
        CheckConstraint(
            "status IN ('scheduled', 'attended', 'cancelled', 'no-show')", name="status"
        ),
        Index("ix_appointments_workspace_range", "workspace_id", "starts_at", "ends_at"),
    )

    client_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("clients.id", ondelete="RESTRICT"))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(20), default=AppointmentStatus.SCHEDULED.value)
    location: Mapped[str | None] = mapped_column(EncryptedString())
    notes: Mapped[str | None] = mapped_column(EncryptedString())
