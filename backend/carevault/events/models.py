"""The change feed's rows (migration 0023). PostgreSQL's triggers write them; nothing but
ids and types is stored, never PHI."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Identity, Index, String, func, text
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import Base, IdentifiedById

# The inserting transaction's id (xid8 as bigint), as audit_events.txid.
CURRENT_TXID = text("(pg_current_xact_id()::text)::bigint")


class ChangeEvent(IdentifiedById, Base):
    """One change to one resource, in the transaction that made it.

    `txid` is the writing transaction's id: readers order by (txid, id) and read only below
    a bound no transaction that may still commit lies under (carevault.events.feed)."""

    __tablename__ = "change_events"
    __table_args__ = (
        Index("ix_change_events_workspace_txid_id", "workspace_id", "txid", "id"),
        Index("ix_change_events_occurred_at", "occurred_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    type: Mapped[str] = mapped_column(String(64))
    resource_type: Mapped[str] = mapped_column(String(32))
    resource_id: Mapped[uuid.UUID]
    occurred_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    txid: Mapped[int] = mapped_column(BigInteger, server_default=CURRENT_TXID)


class ChangeEventHorizon(Base):
    """Where pruning stopped in one practice's feed: the highest (txid, event_id) pruned.
    A cursor below it may have missed pruned events (410 `cursor_expired`)."""

    __tablename__ = "change_event_horizons"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    txid: Mapped[int] = mapped_column(BigInteger)
    event_id: Mapped[int] = mapped_column(BigInteger)
    pruned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
