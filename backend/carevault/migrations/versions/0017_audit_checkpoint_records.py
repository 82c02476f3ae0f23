"""audit_checkpoints: each checkpoint the app wrote to the checkpoint store, so that the
database remembers the newest one the store must hold (issue 23). A store that was emptied,
replaced or rewound is then noticed by `carevault audit verify` and by the app, which refuses
to start a new checkpoint chain over it (carevault/audit/checkpoints.py). Each row also says
how far the writer has checked every seal's MAC, and how many did not verify (readiness and
/metrics report them). Append-only, like
the other audit tables: the same trigger function refuses UPDATE, DELETE and TRUNCATE.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRIGGERS = (
    """
CREATE TRIGGER audit_checkpoints_no_update_delete
    BEFORE UPDATE OR DELETE ON audit_checkpoints
    FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change()
""",
    """
CREATE TRIGGER audit_checkpoints_no_truncate
    BEFORE TRUNCATE ON audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change()
""",
)


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("digest", sa.LargeBinary(), nullable=False),
        # The checkpoint writer checks every new seal's MAC: up to which audit_seals.id, how
        # many did not verify so far, and the newest of their ids.
        sa.Column("seals_checked_to", sa.BigInteger(), nullable=False),
        sa.Column("untrusted_seals", sa.BigInteger(), nullable=False),
        sa.Column("untrusted_seal_ids", postgresql.ARRAY(sa.BigInteger()), nullable=False),
        sa.Column("mac", sa.LargeBinary(), nullable=False),
        sa.Column(
            "recorded_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_checkpoints")),
    )
    for statement in TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("audit_checkpoints")
