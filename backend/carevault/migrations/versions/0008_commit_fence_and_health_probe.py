"""Commit fence and readiness write probe (failing well, issue 11).

- `carevault_commit_fence()`: a deferred constraint trigger on audit_events (every API
  transaction writes one) refuses to COMMIT once the wall-clock deadline the app set with
  `set_config('carevault.commit_deadline', …, true)` has passed. A client that gave up on a
  commit was told it failed; without the fence a frozen server could still run the queued
  COMMIT when it wakes up. Transactions that set no deadline (CLI, migrations) are untouched.
- `health_probes`: one row per serving process, rewritten by readiness to prove the
  database can commit a write.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
CREATE FUNCTION carevault_commit_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    fence text := current_setting('carevault.commit_deadline', true);
BEGIN
    IF fence IS NOT NULL AND fence <> ''
       AND clock_timestamp() > to_timestamp(fence::double precision) THEN
        RAISE EXCEPTION 'commit deadline passed; the transaction is rolled back'
            USING ERRCODE = '57014';
    END IF;
    RETURN NULL;
END
$$
"""
    )
    op.execute(
        """
CREATE CONSTRAINT TRIGGER audit_events_commit_fence
    AFTER INSERT ON audit_events
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION carevault_commit_fence()
"""
    )
    op.create_table(
        "health_probes",
        sa.Column("process", sa.Text(), nullable=False),
        sa.Column("probed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("process", name=op.f("pk_health_probes")),
    )


def downgrade() -> None:
    op.drop_table("health_probes")
    op.execute("DROP TRIGGER audit_events_commit_fence ON audit_events")
    op.execute("DROP FUNCTION carevault_commit_fence()")
