"""Initial schema: tenants, users, clients, calendar, session notes, audit trail.

Encrypted columns are plain bytea here; the application's EncryptedString type gives
them meaning. audit_events is append-only, enforced by a trigger.

Revision ID: 0001
Revises:
Create Date: 2026-11-23 09:39:54.536215+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "workspaces",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workspaces")),
        sa.UniqueConstraint("name", name=op.f("uq_workspaces_name")),
    )
    op.create_table(
        "clients",
        sa.Column("first_name", sa.LargeBinary(), nullable=False),
        sa.Column("last_name", sa.LargeBinary(), nullable=False),
        sa.Column("email", sa.LargeBinary(), nullable=True),
        sa.Column("phone", sa.LargeBinary(), nullable=True),
        sa.Column("date_of_birth", sa.LargeBinary(), nullable=True),
        sa.Column("address", sa.LargeBinary(), nullable=True),
        sa.Column("emergency_contact_name", sa.LargeBinary(), nullable=True),
        sa.Column("emergency_contact_phone", sa.LargeBinary(), nullable=True),
        sa.Column("medical_history", sa.LargeBinary(), nullable=True),
        sa.Column("notes", sa.LargeBinary(), nullable=True),
        sa.Column("email_bidx", sa.LargeBinary(), nullable=True),
        sa.Column("phone_bidx", sa.LargeBinary(), nullable=True),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_clients_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clients")),
    )
    op.create_index(
        "ix_clients_workspace_email_bidx", "clients", ["workspace_id", "email_bidx"], unique=False
    )
    op.create_index(op.f("ix_clients_workspace_id"), "clients", ["workspace_id"], unique=False)
    op.create_index(
        "ix_clients_workspace_phone_bidx", "clients", ["workspace_id", "phone_bidx"], unique=False
    )
    op.create_table(
        "users",
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint("role IN ('owner', 'clinician')", name=op.f("ck_users_role")),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_users_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_index(op.f("ix_users_workspace_id"), "users", ["workspace_id"], unique=False)
    op.create_index("uq_users_email_lower", "users", [sa.text("lower(email)")], unique=True)
    op.create_table(
        "api_tokens",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_api_tokens_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_api_tokens_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_tokens_token_hash")),
    )
    op.create_index(
        op.f("ix_api_tokens_workspace_id"), "api_tokens", ["workspace_id"], unique=False
    )
    op.create_table(
        "appointments",
        sa.Column("client_id", sa.Uuid(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("location", sa.LargeBinary(), nullable=True),
        sa.Column("notes", sa.LargeBinary(), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('scheduled', 'attended', 'cancelled', 'no-show')",
            name=op.f("ck_appointments_status"),
        ),
        sa.CheckConstraint("ends_at > starts_at", name=op.f("ck_appointments_ends_after_start")),
        sa.ForeignKeyConstraint(
            ["client_id"],
            ["clients.id"],
            name=op.f("fk_appointments_client_id_clients"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_appointments_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appointments")),
    )
    op.create_index(
        op.f("ix_appointments_workspace_id"), "appointments", ["workspace_id"], unique=False
    )
    op.create_index(
        "ix_appointments_workspace_range",
        "appointments",
        ["workspace_id", "starts_at", "ends_at"],
        unique=False,
    )
    op.create_table(
        "audit_events",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=True),
        sa.Column(
            "occurred_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("actor_user_id", sa.Uuid(), nullable=True),
        sa.Column("actor_token_id", sa.Uuid(), nullable=True),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("resource_type", sa.String(length=64), nullable=True),
        sa.Column("resource_ids", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("ip_address", postgresql.INET(), nullable=True),
        sa.Column("details", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("prev_hash", sa.LargeBinary(), nullable=True),
        sa.Column("hash", sa.LargeBinary(), nullable=True),
        sa.ForeignKeyConstraint(
            ["actor_token_id"],
            ["api_tokens.id"],
            name=op.f("fk_audit_events_actor_token_id_api_tokens"),
        ),
        sa.ForeignKeyConstraint(
            ["actor_user_id"], ["users.id"], name=op.f("fk_audit_events_actor_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_audit_events_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_events")),
    )
    op.create_index(
        op.f("ix_audit_events_workspace_id"), "audit_events", ["workspace_id"], unique=False
    )
    op.create_index(
        "ix_audit_events_workspace_time",
        "audit_events",
        ["workspace_id", "occurred_at"],
        unique=False,
    )
    op.create_table(
        "sessions",
        sa.Column("client_id", sa.Uuid(), nullable=False),
        sa.Column("appointment_id", sa.Uuid(), nullable=True),
        sa.Column("session_date", sa.Date(), nullable=False),
        sa.Column("duration_minutes", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("finalized_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("subjective", sa.LargeBinary(), nullable=True),
        sa.Column("objective", sa.LargeBinary(), nullable=True),
        sa.Column("assessment", sa.LargeBinary(), nullable=True),
        sa.Column("plan", sa.LargeBinary(), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint("status IN ('draft', 'finalized')", name=op.f("ck_sessions_status")),
        sa.CheckConstraint("duration_minutes > 0", name=op.f("ck_sessions_duration_positive")),
        sa.ForeignKeyConstraint(
            ["appointment_id"],
            ["appointments.id"],
            name=op.f("fk_sessions_appointment_id_appointments"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["client_id"],
            ["clients.id"],
            name=op.f("fk_sessions_client_id_clients"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_sessions_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_index(
        "ix_sessions_workspace_client_date",
        "sessions",
        ["workspace_id", "client_id", "session_date"],
        unique=False,
    )
    op.create_index(op.f("ix_sessions_workspace_id"), "sessions", ["workspace_id"], unique=False)
    op.create_table(
        "session_versions",
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("amended_by", sa.Uuid(), nullable=True),
        sa.Column("amended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("subjective", sa.LargeBinary(), nullable=True),
        sa.Column("objective", sa.LargeBinary(), nullable=True),
        sa.Column("assessment", sa.LargeBinary(), nullable=True),
        sa.Column("plan", sa.LargeBinary(), nullable=True),
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["amended_by"], ["users.id"], name=op.f("fk_session_versions_amended_by_users")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_session_versions_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_session_versions_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_versions")),
    )
    op.create_index(
        op.f("ix_session_versions_workspace_id"), "session_versions", ["workspace_id"], unique=False
    )
    op.create_index(
        "uq_session_versions_session_version",
        "session_versions",
        ["session_id", "version"],
        unique=True,
    )
    for statement in AUDIT_APPEND_ONLY:
        op.execute(statement)


# asyncpg prepares each statement, so they are executed one at a time.
AUDIT_APPEND_ONLY = (
    """
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$
""",
    """
CREATE TRIGGER audit_events_no_update_delete
    BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change()
""",
    """
CREATE TRIGGER audit_events_no_truncate
    BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change()
""",
)


def downgrade() -> None:
    op.execute("DROP TRIGGER audit_events_no_truncate ON audit_events")
    op.execute("DROP TRIGGER audit_events_no_update_delete ON audit_events")
    op.execute("DROP FUNCTION audit_events_refuse_change()")
    op.drop_index("uq_session_versions_session_version", table_name="session_versions")
    op.drop_index(op.f("ix_session_versions_workspace_id"), table_name="session_versions")
    op.drop_table("session_versions")
    op.drop_index(op.f("ix_sessions_workspace_id"), table_name="sessions")
    op.drop_index("ix_sessions_workspace_client_date", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ix_audit_events_workspace_time", table_name="audit_events")
    op.drop_index(op.f("ix_audit_events_workspace_id"), table_name="audit_events")
    op.drop_table("audit_events")
    op.drop_index("ix_appointments_workspace_range", table_name="appointments")
    op.drop_index(op.f("ix_appointments_workspace_id"), table_name="appointments")
    op.drop_table("appointments")
    op.drop_index(op.f("ix_api_tokens_workspace_id"), table_name="api_tokens")
    op.drop_table("api_tokens")
    op.drop_index("uq_users_email_lower", table_name="users")
    op.drop_index(op.f("ix_users_workspace_id"), table_name="users")
    op.drop_table("users")
    op.drop_index("ix_clients_workspace_phone_bidx", table_name="clients")
    op.drop_index(op.f("ix_clients_workspace_id"), table_name="clients")
    op.drop_index("ix_clients_workspace_email_bidx", table_name="clients")
    op.drop_table("clients")
    op.drop_table("workspaces")
