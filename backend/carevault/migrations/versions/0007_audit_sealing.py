"""Audit trail sealed after the fact: events are appended with one INSERT and no lock, and a
sealer links them afterwards with HMAC-SHA256 under the ring's audit key into `audit_seals`.

- audit_events loses the unkeyed SHA-256 chain (prev_hash, hash): anyone with write access
  could recompute it, and computing it needed a per-practice lock.
- audit_events.txid: the inserting transaction's id. The sealer seals by ranges of it, below
  the oldest transaction that may still commit (see carevault/audit/sealing.py). Rows that
  predate this revision get small values (id / 10,000), so the first rounds seal them.
- audit_events.resource_ids: jsonb array of strings → uuid[] (16 bytes an id instead of ~40).
- audit_seals: append-only like audit_events (the same refusing trigger).
- ix_audit_events_workspace_id goes: the two composite indexes starting with workspace_id
  serve every query it served.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TXID_DEFAULT = "(pg_current_xact_id()::text)::bigint"
LEGACY_GROUP = 10_000

# asyncpg prepares each statement, so they are executed one at a time.
UPGRADE = (
    # Lenient on purpose: an id that is not a UUID (never written by this version) is dropped
    # rather than failing the upgrade of an audit trail.
    """
CREATE FUNCTION pg_temp.carevault_uuid_array(ids jsonb) RETURNS uuid[]
LANGUAGE sql IMMUTABLE AS $$
    SELECT array_agg(value::uuid ORDER BY ordinality)
    FROM jsonb_array_elements_text(
        CASE WHEN jsonb_typeof(ids) = 'array' THEN ids ELSE '[]'::jsonb END
    ) WITH ORDINALITY
    WHERE value ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
$$
""",
    """
ALTER TABLE audit_events
    DROP COLUMN prev_hash,
    DROP COLUMN hash,
    ALTER COLUMN resource_ids TYPE uuid[] USING pg_temp.carevault_uuid_array(resource_ids),
    ADD COLUMN txid bigint NOT NULL DEFAULT 0
""",
    # Rows from before this revision: all committed, so any txid below this migration's own
    # is safe; groups of 10,000 ids let the first rounds seal a large trail in bounded
    # rounds instead of one.
    "ALTER TABLE audit_events ALTER COLUMN txid TYPE bigint "
    f"USING least(id / {LEGACY_GROUP}, {TXID_DEFAULT} - 1)",
    f"ALTER TABLE audit_events ALTER COLUMN txid SET DEFAULT {TXID_DEFAULT}",
    "CREATE INDEX ix_audit_events_txid ON audit_events (txid)",
    # Redundant with (workspace_id, occurred_at) and (workspace_id, id): ~20 bytes an event.
    "DROP INDEX ix_audit_events_workspace_id",
    """
CREATE TRIGGER audit_seals_no_update_delete
    BEFORE UPDATE OR DELETE ON audit_seals
    FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change()
""",
    """
CREATE TRIGGER audit_seals_no_truncate
    BEFORE TRUNCATE ON audit_seals
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change()
""",
)


def upgrade() -> None:
    op.create_table(
        "audit_seals",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        # The nil UUID is the chain of events without a workspace (e.g. unknown-user logins).
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("event_ids", postgresql.ARRAY(sa.BigInteger()), nullable=False),
        sa.Column("digests", sa.LargeBinary(), nullable=False),
        sa.Column("total", sa.BigInteger(), nullable=False),
        sa.Column("prev_mac", sa.LargeBinary(), nullable=False),
        sa.Column("mac", sa.LargeBinary(), nullable=False),
        sa.Column("key_id", sa.LargeBinary(), nullable=False),
        sa.Column("txid_from", sa.BigInteger(), nullable=False),
        sa.Column("txid_to", sa.BigInteger(), nullable=False),
        sa.Column(
            "sealed_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_seals")),
        sa.UniqueConstraint("workspace_id", "seq", name="uq_audit_seals_workspace_seq"),
    )
    op.create_index("ix_audit_seals_txid_to", "audit_seals", ["txid_to"], unique=False)
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("audit_seals")
    op.execute("DROP INDEX ix_audit_events_txid")
    op.execute("CREATE INDEX ix_audit_events_workspace_id ON audit_events (workspace_id)")
    op.execute(
        "ALTER TABLE audit_events DROP COLUMN txid, "
        "ALTER COLUMN resource_ids TYPE jsonb USING to_jsonb(resource_ids), "
        "ADD COLUMN prev_hash bytea, ADD COLUMN hash bytea"
    )
