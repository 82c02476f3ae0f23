"""Login sessions (cookie auth, idle logoff) and failed sign-ins for rate limiting.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 09:56:05.400778+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("email_key", sa.LargeBinary(), nullable=False),
        sa.Column("ip_address", sa.String(length=64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index(
        "ix_login_failures_email_at", "login_failures", ["email_key", "at"], unique=False
    )
    op.create_index("ix_login_failures_ip_at", "login_failures", ["ip_address", "at"], unique=False)
    op.create_table(
        "login_sessions",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("secret_hash", sa.LargeBinary(), nullable=False),
        sa.Column("csrf_hash", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("end_reason", sa.String(length=20), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_login_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_login_sessions_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_sessions")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_login_sessions_secret_hash")),
    )
    op.create_index(
        op.f("ix_login_sessions_workspace_id"), "login_sessions", ["workspace_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_login_sessions_workspace_id"), table_name="login_sessions")
    op.drop_table("login_sessions")
    op.drop_index("ix_login_failures_ip_at", table_name="login_failures")
    op.drop_index("ix_login_failures_email_at", table_name="login_failures")
    op.drop_table("login_failures")
