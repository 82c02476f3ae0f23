from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import (
    Base,
    Timestamps,
    UUIDPrimaryKey,
    WorkspaceScoped,
    tenant_foreign_key,
)


class Role(StrEnum):
    OWNER = "owner"
    CLINICIAN = "clinician"


class User(UUIDPrimaryKey, WorkspaceScoped, Timestamps, Base):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role IN ('owner', 'clinician')", name="role"),
        # Unique within a practice only: a service-wide rule would let any owner learn
        # whether an address is registered with another practice (POST /users).
        Index("uq_users_workspace_email_lower", "workspace_id", text("lower(email)"), unique=True),
        Index("ix_users_email_lower", text("lower(email)")),
        tenant_foreign_key("users", "supervisor_id", "users", ondelete="SET NULL"),
    )

    email: Mapped[str] = mapped_column(String(320))
    display_name: Mapped[str] = mapped_column(String(200), default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Set with a temporary password from an owner: the next session can only change it.
    must_change_password: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )
    # A trainee: the notes they sign await a co-signature (carevault.notes.signing) by an
    # owner or by `supervisor_id`, a user of the same practice.
    requires_cosign: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )
    supervisor_id: Mapped[uuid.UUID | None]


class ServiceAccount(UUIDPrimaryKey, WorkspaceScoped, Base):
    """An integration's identity that belongs to the practice, not to a person: its tokens
    (`ApiToken.service_account_id`) keep working when the owner who created it is disabled.
    Deleting one is a soft delete (`deleted_at`): the audit trail keeps naming it.

    `public_key_pem`/`public_key_id`: for OAuth client credentials (a JWT assertion signed
    with the matching private key, RFC 7523), not used yet; see docs/reference/api.md."""

    __tablename__ = "service_accounts"
    __table_args__ = (
        tenant_foreign_key("service_accounts", "created_by", "users", ondelete="SET NULL"),
    )

    name: Mapped[str] = mapped_column(String(200))
    scopes: Mapped[list[str]] = mapped_column(ARRAY(String(40)))
    created_by: Mapped[uuid.UUID | None]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    public_key_pem: Mapped[str | None] = mapped_column(Text)
    public_key_id: Mapped[str | None] = mapped_column(String(64))


class ApiToken(UUIDPrimaryKey, WorkspaceScoped, Base):
    """An integration token; only its SHA-256 is stored. Held by a user (a personal token)
    or by a service account, never both."""

    __tablename__ = "api_tokens"
    __table_args__ = (
        CheckConstraint("(user_id IS NULL) <> (service_account_id IS NULL)", name="one_holder"),
        Index(
            "ix_api_tokens_service_account_id",
            "service_account_id",
            postgresql_where=text("service_account_id IS NOT NULL"),
        ),
        tenant_foreign_key("api_tokens", "user_id", "users", ondelete="CASCADE"),
        tenant_foreign_key(
            "api_tokens", "service_account_id", "service_accounts", ondelete="RESTRICT"
        ),
        # Unique within the practice; the lookup by hash alone, before the practice is
        # known, uses the plain index and refuses a hash found twice (auth.service).
        UniqueConstraint("workspace_id", "token_hash", name="uq_api_tokens_token_hash"),
        Index("ix_api_tokens_token_hash", "token_hash"),
    )

    user_id: Mapped[uuid.UUID | None]
    # Set at creation and never changed: the audit trail names the account through it.
    service_account_id: Mapped[uuid.UUID | None]
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    scopes: Mapped[list[str]] = mapped_column(ARRAY(String(40)))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LoginSession(UUIDPrimaryKey, WorkspaceScoped, Base):
    """A signed-in browser. The cookie carries a random secret; only its SHA-256 is stored."""

    __tablename__ = "login_sessions"
    __table_args__ = (
        tenant_foreign_key("login_sessions", "user_id", "users", ondelete="CASCADE"),
        # As api_tokens.token_hash: unique in the practice, looked up by the plain index.
        UniqueConstraint("workspace_id", "secret_hash", name="uq_login_sessions_secret_hash"),
        Index("ix_login_sessions_secret_hash", "secret_hash"),
    )

    user_id: Mapped[uuid.UUID]
    secret_hash: Mapped[bytes] = mapped_column(LargeBinary)
    csrf_hash: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    end_reason: Mapped[str | None] = mapped_column(String(20))
    # When the password was last proved in this session (sign-in or re-authentication).
    reauthenticated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LoginAttempt(UUIDPrimaryKey, Base):
    """A password check, written and committed before the password is verified, so
    concurrent guesses see each other. `bucket` is what the attempt is throttled under
    (an email, an email on a trusted device, or a login session re-proving its password)."""

    __tablename__ = "login_attempts"
    __table_args__ = (
        CheckConstraint("outcome IN ('pending', 'failed', 'succeeded')", name="outcome"),
        Index("ix_login_attempts_bucket_at", "bucket", "at"),
        Index("ix_login_attempts_ip_at", "ip_address", "at"),
        Index("ix_login_attempts_at", "at"),
    )

    bucket: Mapped[bytes] = mapped_column(LargeBinary)
    # What the per-address limit counts (throttle.address_key): an IPv4 address, or an IPv6
    # address's /64 as "2001:db8:1:2::/64"; None for checks without that limit.
    ip_address: Mapped[str | None] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str] = mapped_column(String(10))


class LoginThrottleTally(Base):
    """Refused (throttled) sign-ins, counted per email and hour instead of one audit row
    each: an unauthenticated caller cannot grow a practice's audit chain."""

    __tablename__ = "login_throttle_tallies"
    __table_args__ = (Index("ix_login_throttle_tallies_hour", "hour"),)

    email_key: Mapped[bytes] = mapped_column(LargeBinary, primary_key=True)
    hour: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    refused: Mapped[int] = mapped_column(Integer)


class TrustedDevice(UUIDPrimaryKey, WorkspaceScoped, Base):
    """A browser that has signed in as this user before (a cookie holds the secret; only its
    SHA-256 is stored). Its attempts are throttled on their own, so a stranger's guesses
    cannot lock the user out of their usual browser."""

    __tablename__ = "trusted_devices"
    __table_args__ = (
        tenant_foreign_key("trusted_devices", "user_id", "users", ondelete="CASCADE"),
        # As api_tokens.token_hash: unique in the practice, looked up by the plain index.
        UniqueConstraint("workspace_id", "secret_hash", name="uq_trusted_devices_secret_hash"),
        Index("ix_trusted_devices_secret_hash", "secret_hash"),
    )

    user_id: Mapped[uuid.UUID]
    secret_hash: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
