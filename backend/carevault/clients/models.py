from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import DateTime, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedDate, EncryptedString
from carevault.db.base import Base, Timestamps, UUIDPrimaryKey, WorkspaceScoped


class Client(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    """A person in care. Every personal field is PHI and stored encrypted."""

    __tablename__ = "clients"
    __table_args__ = (
        Index("ix_clients_workspace_email_bidx", "workspace_id", "email_bidx"),
        Index("ix_clients_workspace_phone_bidx", "workspace_id", "phone_bidx"),
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
