from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Index, Integer, LargeBinary
from sqlalchemy.orm import Mapped, mapped_column

from carevault.crypto.types import EncryptedString
from carevault.db.base import Base, UUIDPrimaryKey, WorkspaceScoped


class IdempotencyRecord(UUIDPrimaryKey, WorkspaceScoped, Base):
    """One remembered create. The key and the request are stored as hashes; the response
    (which can hold PHI, or a new token's secret) is sealed like every other PHI value,
    bound to this row and practice, and the row expires after a day."""

    __tablename__ = "idempotency_records"
    __table_args__ = (
        Index(
            "uq_idempotency_records_caller_key",
            "workspace_id",
            "caller_hash",
            "key_hash",
            unique=True,
        ),
        Index("ix_idempotency_records_expires_at", "expires_at"),
    )

    caller_hash: Mapped[bytes] = mapped_column(LargeBinary)
    key_hash: Mapped[bytes] = mapped_column(LargeBinary)
    request_hash: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_body: Mapped[str | None] = mapped_column(EncryptedString())
