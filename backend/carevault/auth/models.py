from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, LargeBinary, String, func, text
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import Base, Timestamps, UUIDPrimaryKey, WorkspaceScoped


class Role(StrEnum):
    OWNER = "owner"
    CLINICIAN = "clinician"


class User(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role IN ('owner', 'clinician')", name="role"),
        # One account per address across the service: login needs no workspace name.
        Index("uq_users_email_lower", text("lower(email)"), unique=True),
    )

    email: Mapped[str] = mapped_column(String(320))
    display_name: Mapped[str] = mapped_column(String(200), default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ApiToken(UUIDPrimaryKey, WorkspaceScoped, Base):
    """An integration token; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LoginSession(UUIDPrimaryKey, WorkspaceScoped, Base):
    """A signed-in browser. The cookie carries a random secret; only its SHA-256 is stored."""

    __tablename__ = "login_sessions"

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    secret_hash: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    csrf_hash: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    end_reason: Mapped[str | None] = mapped_column(String(20))


class LoginFailure(UUIDPrimaryKey, Base):
    """A failed sign-in, counted for rate limiting by email and by address."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_email_at", "email_key", "at"),
        Index("ix_login_failures_ip_at", "ip_address", "at"),
    )

    email_key: Mapped[bytes] = mapped_column(LargeBinary)
    ip_address: Mapped[str | None] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
