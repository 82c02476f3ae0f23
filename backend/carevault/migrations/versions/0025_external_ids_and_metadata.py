"""Integrator-owned ids and metadata on clients, appointments and session notes.

Each table gets `external_id` (sealed like PHI), `external_id_bidx` (its blind index, unique
per practice by a unique index on (workspace_id, external_id_bidx), so one kind of record
never has the same external id twice in a practice) and `metadata_json` (the metadata map
as JSON text, sealed like PHI). Every existing row has none of them. The tables already
carry the shred fence's triggers (migration 0018), which cover new columns.

Revision ID: 0025
Revises: 0024
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("clients", "appointments", "sessions")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("external_id", sa.LargeBinary(), nullable=True))
        op.add_column(table, sa.Column("external_id_bidx", sa.LargeBinary(), nullable=True))
        op.add_column(table, sa.Column("metadata_json", sa.LargeBinary(), nullable=True))
        op.create_index(
            f"uq_{table}_workspace_external_id_bidx",
            table,
            ["workspace_id", "external_id_bidx"],
            unique=True,
        )


def downgrade() -> None:
    for table in TABLES:
        op.drop_index(f"uq_{table}_workspace_external_id_bidx", table_name=table)
        op.drop_column(table, "metadata_json")
        op.drop_column(table, "external_id_bidx")
        op.drop_column(table, "external_id")
