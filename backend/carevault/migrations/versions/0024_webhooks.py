"""Signed webhooks: endpoints, their deliveries and each delivery attempt.

`webhook_endpoints.secret` is sealed under the practice's data key like PHI, so the table
gets the shred fence's triggers (migration 0018). Deliveries and attempts carry ids, types,
status codes and error classes only.

Revision ID: 0024
Revises: 0023
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UUID = postgresql.UUID(as_uuid=True)
NOW = sa.text("now()")


def _workspace(table: str) -> sa.Column[object]:
    return sa.Column(
        "workspace_id",
        UUID,
        sa.ForeignKey(
            "workspaces.id", ondelete="RESTRICT", name=f"fk_{table}_workspace_id_workspaces"
        ),
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "webhook_endpoints",
        sa.Column("id", UUID, nullable=False),
        _workspace("webhook_endpoints"),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("description", sa.String(500), nullable=False, server_default=""),
        sa.Column("event_types", postgresql.ARRAY(sa.String(80)), nullable=False),
        sa.Column("secret", sa.LargeBinary(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False, server_default=sa.text("true")),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_reason", sa.String(200), nullable=True),
        sa.Column("cursor", sa.String(200), nullable=True),
        sa.Column("consecutive_failures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_success_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_endpoints"),
    )
    op.create_index("ix_webhook_endpoints_workspace_id", "webhook_endpoints", ["workspace_id"])
    op.create_index(
        "ix_webhook_endpoints_enabled", "webhook_endpoints", ["enabled", "workspace_id"]
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", UUID, nullable=False),
        _workspace("webhook_deliveries"),
        sa.Column(
            "endpoint_id",
            UUID,
            sa.ForeignKey(
                "webhook_endpoints.id",
                ondelete="CASCADE",
                name="fk_webhook_deliveries_endpoint_id_webhook_endpoints",
            ),
            nullable=False,
        ),
        sa.Column("event_id", sa.String(200), nullable=False),
        sa.Column("event_type", sa.String(80), nullable=False),
        sa.Column("payload", postgresql.JSONB(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("give_up_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.String(64), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_deliveries"),
        sa.UniqueConstraint("endpoint_id", "event_id", name="uq_webhook_deliveries_endpoint_event"),
        sa.CheckConstraint(
            "status IN ('pending', 'succeeded', 'failed')", name="ck_webhook_deliveries_status"
        ),
    )
    op.create_index("ix_webhook_deliveries_workspace_id", "webhook_deliveries", ["workspace_id"])
    op.create_index(
        "ix_webhook_deliveries_due",
        "webhook_deliveries",
        ["next_attempt_at"],
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_index(
        "ix_webhook_deliveries_endpoint_created",
        "webhook_deliveries",
        ["endpoint_id", "created_at"],
    )
    op.create_table(
        "webhook_attempts",
        sa.Column("id", UUID, nullable=False),
        _workspace("webhook_attempts"),
        sa.Column(
            "delivery_id",
            UUID,
            sa.ForeignKey(
                "webhook_deliveries.id",
                ondelete="CASCADE",
                name="fk_webhook_attempts_delivery_id_webhook_deliveries",
            ),
            nullable=False,
        ),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("succeeded", sa.Boolean(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_attempts"),
    )
    op.create_index("ix_webhook_attempts_workspace_id", "webhook_attempts", ["workspace_id"])
    op.create_index(
        "ix_webhook_attempts_delivery_at", "webhook_attempts", ["delivery_id", "attempted_at"]
    )
    # The secret is sealed under the practice's data key: a shredded practice's writes are
    # refused here as on every other table with encrypted columns (migration 0018).
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER webhook_endpoints_refuse_shredded_{event.lower()} AFTER {event} "
            "ON webhook_endpoints REFERENCING NEW TABLE AS written "
            "FOR EACH STATEMENT EXECUTE FUNCTION carevault_refuse_shredded()"
        )


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_endpoints")
