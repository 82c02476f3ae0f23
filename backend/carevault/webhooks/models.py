"""Webhook endpoints, their deliveries (one per endpoint and event) and each attempt."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    Index,
    Integer,
    String,
    UniqueConstraint,
    func,
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


class WebhookEndpoint(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    """Where a practice's events are sent. The signing secret is sealed like PHI (it is key
    material); `cursor` is the feed position up to which events were queued for it."""

    __tablename__ = "webhook_endpoints"
    __table_args__ = (
        # The worker's scan: enabled endpoints of every practice.
        Index("ix_webhook_endpoints_enabled", "enabled", "workspace_id"),
    )

    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str] = mapped_column(String(500), default="", server_default="")
    event_types: Mapped[list[str]] = mapped_column(ARRAY(String(80)))
    secret: Mapped[str] = mapped_column(EncryptedString())
    enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=text("true"))
    # Set when the worker gave up on the endpoint (persistent failure) or an owner disabled it.
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    disabled_reason: Mapped[str | None] = mapped_column(String(200))
    cursor: Mapped[str | None] = mapped_column(String(200))
    consecutive_failures: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_success_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebhookDelivery(UUIDPrimaryKey, WorkspaceScoped, Base):
    """One event for one endpoint: retried until it succeeds or `give_up_at` passes.
    `payload` is the event envelope (ids and types only, never PHI)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint(
            "workspace_id", "endpoint_id", "event_id", name="uq_webhook_deliveries_endpoint_event"
        ),
        CheckConstraint("status IN ('pending', 'succeeded', 'failed')", name="status"),
        # The worker's claim: due pending deliveries, oldest due first.
        Index(
            "ix_webhook_deliveries_due",
            "next_attempt_at",
            postgresql_where=text("status = 'pending'"),
        ),
        Index("ix_webhook_deliveries_endpoint_created", "endpoint_id", "created_at"),
        tenant_foreign_key(
            "webhook_deliveries", "endpoint_id", "webhook_endpoints", ondelete="CASCADE"
        ),
    )

    endpoint_id: Mapped[uuid.UUID]
    event_id: Mapped[str] = mapped_column(String(200))
    event_type: Mapped[str] = mapped_column(String(80))
    payload: Mapped[dict[str, object]] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # When it is due; while an attempt is in flight, the end of that attempt's lease.
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    give_up_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(64))
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebhookAttempt(UUIDPrimaryKey, WorkspaceScoped, Base):
    """One POST: its outcome in a status code, a duration and an error class. The response
    body is never stored (a receiver could echo anything back)."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (
        Index("ix_webhook_attempts_delivery_at", "delivery_id", "attempted_at"),
        tenant_foreign_key(
            "webhook_attempts", "delivery_id", "webhook_deliveries", ondelete="CASCADE"
        ),
    )

    delivery_id: Mapped[uuid.UUID]
    attempted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    succeeded: Mapped[bool] = mapped_column(Boolean)
    status_code: Mapped[int | None] = mapped_column(Integer)
    duration_ms: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(String(64))
