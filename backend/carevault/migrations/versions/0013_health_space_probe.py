"""Readiness space probe: a scratch table that readiness empties and writes to in a
rolled-back subtransaction, so that the probe must allocate disk space (see
carevault.api.readiness.probe_write). It never holds a committed row.

Keep it in the tablespace of audit_events (every request writes there): if audit_events is
moved (ALTER TABLE … SET TABLESPACE), move this table with it.

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table("health_space_probe", sa.Column("filler", sa.Text(), nullable=False))


def downgrade() -> None:
    op.drop_table("health_space_probe")
