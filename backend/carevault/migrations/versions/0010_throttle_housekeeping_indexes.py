"""Indexes that let sign-in housekeeping delete expired throttle rows of every bucket.

Attempts older than the counting window, and tallies older than their retention, are
deleted a bounded batch at a time by each admitted sign-in; without an index on the time
column that delete would scan the whole table.

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_login_attempts_at", "login_attempts", ["at"])
    op.create_index("ix_login_throttle_tallies_hour", "login_throttle_tallies", ["hour"])


def downgrade() -> None:
    op.drop_index("ix_login_throttle_tallies_hour", table_name="login_throttle_tallies")
    op.drop_index("ix_login_attempts_at", table_name="login_attempts")
