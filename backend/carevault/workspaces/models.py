from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import Base, Timestamps, UUIDPrimaryKey


class Workspace(UUIDPrimaryKey, Timestamps, Base):
    """A practice: the tenant every other row belongs to."""

    __tablename__ = "workspaces"
    __table_args__ = (
        CheckConstraint("late_entry_hours BETWEEN 1 AND 8760", name="late_entry_hours"),
        CheckConstraint("chart_access IN ('practice', 'care_team')", name="chart_access"),
    )

    name: Mapped[str] = mapped_column(String(200), unique=True)
    # IANA zone that decides the practice's "today" (carevault.workspaces.time).
    time_zone: Mapped[str] = mapped_column(String(64), server_default="UTC")
    # ISO 3166 region whose national phone numbers the practice writes, such as "GB"
    # (carevault.workspaces.phones); the default is DEFAULT_PHONE_REGION.
    phone_region: Mapped[str] = mapped_column(String(2), server_default="US")
    # A note signed more than this many hours after its session ended is a late entry
    # (carevault.notes.signing).
    late_entry_hours: Mapped[int] = mapped_column(Integer, server_default="72")
    # Who sees which charts (carevault.clients.access): `practice`, every clinician every
    # chart; `care_team`, clinicians only their clients' (owners always every chart).
    chart_access: Mapped[str] = mapped_column(String(16), server_default="practice")
    # Whether a clinician may open a chart outside their care team with a stated reason.
    break_the_glass: Mapped[bool] = mapped_column(Boolean, server_default="false")
    # Set by `carevault workspaces shred`: its data keys are gone, its PHI unreadable.
    shredded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The practice's own KMS key (BYOK, `carevault workspaces set-key`): its data keys are
    # wrapped under it. None: the installation's key (CAREVAULT_KMS_KEY_ID).
    kms_key_id: Mapped[str | None] = mapped_column(String(2048))


# `key_version` of a practice's blind-index key; data keys use their master version (1+).
BLIND_INDEX_KEY_VERSION = 0


class WorkspaceKey(Base):
    """A practice's data key for one master key version, wrapped under that version; or,
    as version 0, its blind-index key, wrapped under the master version `wrapped_under`."""

    __tablename__ = "workspace_keys"
    __table_args__ = (
        CheckConstraint(
            "key_version BETWEEN 0 AND 4294967295 AND wrapped_under BETWEEN 1 AND 4294967295 "
            "AND (key_version = 0 OR key_version = wrapped_under)",
            name="versions",
        ),
    )

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("workspaces.id", ondelete="RESTRICT"), primary_key=True
    )
    key_version: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    wrapped_under: Mapped[int] = mapped_column(BigInteger)
    wrapped_key: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class InstallationKey(Base):
    """An installation-wide key (the ring-wide blind-index key, the audit key) as a KMS
    ciphertext, when the master keys live in KMS (carevault.crypto.kms)."""

    __tablename__ = "installation_keys"
    __table_args__ = (CheckConstraint("purpose IN ('blind-index', 'audit')", name="purpose"),)

    purpose: Mapped[str] = mapped_column(String(32), primary_key=True)
    wrapped_key: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
