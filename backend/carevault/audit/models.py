from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    LargeBinary,
    SmallInteger,
    String,
    UniqueConstraint,
    Uuid,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, INET, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import Base, IdentifiedById, tenant_foreign_key

# The inserting transaction's id (xid8 as bigint): the sealer's ordering key.
CURRENT_TXID = text("(pg_current_xact_id()::text)::bigint")


class AuditEvent(IdentifiedById, Base):
    """Append-only: a trigger in the database refuses UPDATE, DELETE and TRUNCATE.

    Events never hold PHI: who, what action, which resource, when, from where. They are
    written with a single INSERT and sealed afterwards (carevault/audit/sealing.py).
    """

    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_workspace_time", "workspace_id", "occurred_at"),
        Index("ix_audit_events_workspace_id_desc", "workspace_id", "id"),
        Index("ix_audit_events_txid", "txid"),
        # A client's access log: the events naming its records (migration 0021).
        Index("ix_audit_events_resource_ids", "resource_ids", postgresql_using="gin"),
        # The table's key. Events of the installation (no practice) have no workspace_id,
        # so it cannot be a primary key; NULLS NOT DISTINCT keeps their ids unique too
        # (migration 0029; docs/how-to/sharding.md).
        UniqueConstraint(
            "workspace_id",
            "id",
            name="uq_audit_events_workspace_id_id",
            postgresql_nulls_not_distinct=True,
        ),
        # An actor of the event's own practice (not checked on an installation event).
        tenant_foreign_key("audit_events", "actor_user_id", "users"),
        tenant_foreign_key("audit_events", "actor_token_id", "api_tokens"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True))
    workspace_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("workspaces.id", ondelete="RESTRICT")
    )
    occurred_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    actor_user_id: Mapped[uuid.UUID | None]
    actor_token_id: Mapped[uuid.UUID | None]
    action: Mapped[str] = mapped_column(String(64))
    resource_type: Mapped[str | None] = mapped_column(String(64))
    resource_ids: Mapped[list[uuid.UUID] | None] = mapped_column(ARRAY(Uuid))
    ip_address: Mapped[str | None] = mapped_column(INET)
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    txid: Mapped[int] = mapped_column(BigInteger, server_default=CURRENT_TXID)


class AuditSeal(IdentifiedById, Base):
    """One sealing round's events of one chain (workspace), append-only like the events.

    `digests` holds each event's SHA-256 content digest (32 bytes each, in `event_ids`
    order); `mac` is HMAC-SHA256 under the ring's audit key over the format, the chain
    position, the previous seal's mac, the ids and the digests (format 2: also the txid range
    and `content_digest`, one SHA-256 over all the seal's event encodings). See
    carevault/audit/sealing.py.
    """

    __tablename__ = "audit_seals"
    __table_args__ = (
        UniqueConstraint("workspace_id", "seq", name="uq_audit_seals_workspace_seq"),
        Index("ix_audit_seals_txid_to_workspace_seq", "txid_to", "workspace_id", "seq"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    workspace_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    event_ids: Mapped[list[int]] = mapped_column(ARRAY(BigInteger))
    digests: Mapped[bytes] = mapped_column(LargeBinary)
    total: Mapped[int] = mapped_column(BigInteger)
    prev_mac: Mapped[bytes] = mapped_column(LargeBinary)
    mac: Mapped[bytes] = mapped_column(LargeBinary)
    key_id: Mapped[bytes] = mapped_column(LargeBinary)
    txid_from: Mapped[int] = mapped_column(BigInteger)
    txid_to: Mapped[int] = mapped_column(BigInteger)
    sealed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    format: Mapped[int] = mapped_column(SmallInteger, server_default=text("1"))
    content_digest: Mapped[bytes | None] = mapped_column(LargeBinary)


class AuditCheckpointRecord(Base):
    """Each checkpoint the app wrote to the store (carevault/audit/checkpoints.py), so that
    the database remembers the newest one the store must hold. Append-only like the audit
    tables; `mac` is HMAC-SHA256 under the audit key over the database's name and every
    other column but `id` and `recorded_at`, so a row inserted without the key does not
    count. The writer also checks the MAC of every seal added since the previous record:
    `seals_checked_to` is the highest audit_seals.id checked, `untrusted_seals` how many seals
    up to it do not verify, `untrusted_seal_ids` the newest of those."""

    __tablename__ = "audit_checkpoints"

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    digest: Mapped[bytes] = mapped_column(LargeBinary)
    seals_checked_to: Mapped[int] = mapped_column(BigInteger)
    untrusted_seals: Mapped[int] = mapped_column(BigInteger)
    untrusted_seal_ids: Mapped[list[int]] = mapped_column(ARRAY(BigInteger))
    mac: Mapped[bytes] = mapped_column(LargeBinary)
    recorded_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
