from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import DateTime, ForeignKey, Index, LargeBinary, String, func
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedDate, EncryptedString
from carevault.db.base import (
    Base,
    Timestamps,
    UUIDPrimaryKey,
    WorkspaceScoped,
    tenant_foreign_key,
)
from carevault.db.external import ExternalIdentity


class Client(UUIDPrimaryKey, WorkspaceScoped, Timestamps, ExternalIdentity, Base):
    """A person in care. Every personal field is PHI and stored encrypted."""

    __tablename__ = "clients"
    __table_args__ = (
        Index("ix_clients_workspace_email_bidx", "workspace_id", "email_bidx"),
        Index("ix_clients_workspace_phone_bidx", "workspace_id", "phone_bidx"),
        # Lists that filter by change (updated_since, sort=updated_at; migration 0023).
        Index("ix_clients_workspace_updated", "workspace_id", "updated_at", "id"),
        # The integrator's own id, unique in the practice (carevault.db.external).
        Index(
            "uq_clients_workspace_external_id_bidx",
            "workspace_id",
            "external_id_bidx",
            unique=True,
        ),
    )

    first_name: Mapped[str] = mapped_column(EncryptedString())
    last_name: Mapped[str] = mapped_column(EncryptedString())
    email: Mapped[str | None] = mapped_column(EncryptedString())
    phone: Mapped[str | None] = mapped_column(EncryptedString())
    date_of_birth: Mapped[date | None] = mapped_column(EncryptedDate())
    address: Mapped[str | None] = mapped_column(EncryptedString())
    emergency_contact_name: Mapped[str | None] = mapped_column(EncryptedString())
    emergency_contact_phone: Mapped[str | None] = mapped_column(EncryptedString())
    medical_history: Mapped[str | None] = mapped_column(EncryptedString())
    notes: Mapped[str | None] = mapped_column(EncryptedString())
    email_bidx: Mapped[bytes | None] = mapped_column(LargeBinary)
    phone_bidx: Mapped[bytes | None] = mapped_column(LargeBinary)
    # The practice's phone region `phone` was read in when `phone_bidx` was computed from its
    # E.164 form; NULL with a phone: the digits-only index of rows written before migration
    # 0016, until `carevault reindex-phones` (carevault.clients.phone_index).
    phone_bidx_region: Mapped[str | None] = mapped_column(String(2))
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CareTeamMember(WorkspaceScoped, Base):
    """A clinician assigned to a client. Under the practice's `care_team` chart access, a
    clinician sees only the charts of clients whose care team they are on
    (carevault.clients.access)."""

    __tablename__ = "care_team_members"
    __table_args__ = (
        # "Whose charts may I see": the client list of a clinician under `care_team`.
        Index("ix_care_team_members_workspace_user", "workspace_id", "user_id"),
        tenant_foreign_key("care_team_members", "client_id", "clients", ondelete="CASCADE"),
        tenant_foreign_key("care_team_members", "user_id", "users", ondelete="CASCADE"),
    )

    # The primary key leads with the practice (every tenant key carries it).
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("workspaces.id", ondelete="RESTRICT"), primary_key=True
    )
    client_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ChartAccessGrant(UUIDPrimaryKey, WorkspaceScoped, Base):
    """A break-the-glass grant: a clinician outside a client's care team opened the chart
    with a stated reason, for a limited time. The reason is sealed like any PHI value (it
    may name the client's circumstances); the audit event names only the grant."""

    __tablename__ = "chart_access_grants"
    __table_args__ = (
        Index(
            "ix_chart_access_grants_workspace_user_client",
            "workspace_id",
            "user_id",
            "client_id",
            "expires_at",
        ),
        tenant_foreign_key("chart_access_grants", "client_id", "clients", ondelete="CASCADE"),
        tenant_foreign_key("chart_access_grants", "user_id", "users", ondelete="CASCADE"),
    )

    client_id: Mapped[uuid.UUID]
    user_id: Mapped[uuid.UUID]
    reason: Mapped[str] = mapped_column(EncryptedString())
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
