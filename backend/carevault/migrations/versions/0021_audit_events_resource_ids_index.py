"""Index the records each audit event names, for a client's access log.

`GET /clients/{id}/access-log` finds the events that name the client, its notes or its
appointments among `resource_ids` (`resource_ids && ARRAY[...]`); a GIN index on the array
answers that without scanning the practice's trail. An index changes no row: the events,
their seals and `carevault audit verify` are untouched, and the append-only triggers (which
refuse UPDATE, DELETE and TRUNCATE) do not fire for it.

Revision ID: 0021
Revises: 0020
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_audit_events_resource_ids",
        "audit_events",
        ["resource_ids"],
        unique=False,
        postgresql_using="gin",
    )


def downgrade() -> None:
    op.drop_index("ix_audit_events_resource_ids", table_name="audit_events")
