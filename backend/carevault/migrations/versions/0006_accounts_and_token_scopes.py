"""Accounts an owner can control and sign-in that cannot be raced: sign-in attempts written
before verification (replacing login_failures), throttle tallies, trusted devices,
re-authentication time on login sessions, forced password change, token scopes and expiry.

Existing API tokens keep what they could do before (every scope) and never expire; owners
can revoke them and issue narrower ones.

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_EVERY_SCOPE = (
    "notes:read",
    "notes:write",
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "audit:read",
)


def upgrade() -> None:
    op.drop_index("ix_login_failures_ip_at", table_name="login_failures")
    op.drop_index("ix_login_failures_email_at", table_name="login_failures")
    op.drop_table("login_failures")
    op.create_table(
        "login_attempts",
        sa.Column("bucket", sa.LargeBinary(), nullable=False),
        sa.Column("ip_address", sa.String(length=64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=False),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.CheckConstraint(
            "outcome IN ('pending', 'failed', 'succeeded')", name=op.f("ck_login_attempts_outcome")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_attempts")),
    )
    op.create_index("ix_login_attempts_bucket_at", "login_attempts", ["bucket", "at"])
    op.create_index("ix_login_attempts_ip_at", "login_attempts", ["ip_address", "at"])
    op.create_table(
        "login_throttle_tallies",
        sa.Column("email_key", sa.LargeBinary(), nullable=False),
        sa.Column("hour", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("email_key", "hour", name=op.f("pk_login_throttle_tallies")),
    )
    op.create_table(
        "trusted_devices",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("secret_hash", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_trusted_devices_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_trusted_devices_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trusted_devices")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_trusted_devices_secret_hash")),
    )
    op.create_index(
        op.f("ix_trusted_devices_workspace_id"), "trusted_devices", ["workspace_id"], unique=False
    )
    op.add_column(
        "users",
        sa.Column(
            "must_change_password", sa.Boolean(), server_default=sa.text("false"), nullable=False
        ),
    )
    op.add_column(
        "login_sessions",
        sa.Column("reauthenticated_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.execute("UPDATE login_sessions SET reauthenticated_at = created_at")
    scopes = ", ".join(f"'{scope}'" for scope in _EVERY_SCOPE)
    op.add_column(
        "api_tokens",
        sa.Column(
            "scopes",
            postgresql.ARRAY(sa.String(length=40)),
            server_default=sa.text(f"ARRAY[{scopes}]::varchar(40)[]"),
            nullable=False,
        ),
    )
    # New tokens always name their scopes; the default was only for the existing ones.
    op.alter_column("api_tokens", "scopes", server_default=None)
    op.add_column("api_tokens", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("api_tokens", "expires_at")
    op.drop_column("api_tokens", "scopes")
    op.drop_column("login_sessions", "reauthenticated_at")
    op.drop_column("users", "must_change_password")
    op.drop_index(op.f("ix_trusted_devices_workspace_id"), table_name="trusted_devices")
    op.drop_table("trusted_devices")
    op.drop_table("login_throttle_tallies")
    op.drop_index("ix_login_attempts_ip_at", table_name="login_attempts")
    op.drop_index("ix_login_attempts_bucket_at", table_name="login_attempts")
    op.drop_table("login_attempts")
    op.create_table(
        "login_failures",
        sa.Column("email_key", sa.LargeBinary(), nullable=False),
        sa.Column("ip_address", sa.String(length=64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index("ix_login_failures_email_at", "login_failures", ["email_key", "at"])
    op.create_index("ix_login_failures_ip_at", "login_failures", ["ip_address", "at"])
