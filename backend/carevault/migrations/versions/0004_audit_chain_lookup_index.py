"""Index the audit chain's previous-hash lookup (the workspace's newest event by id).

Without it, a practice that has been quiet scans back through other practices' events while
holding its chain lock (found by `make loadtest`).

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_audit_events_workspace_id_desc", "audit_events", ["workspace_id", "id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_audit_events_workspace_id_desc", table_name="audit_events")
