"""Audit seals record their digest format: 1 (PostgreSQL hashes each event's text form, the
only format until now) or 2 (each event's binary encoding, hashed by the sealer and the
verifier themselves; see carevault/audit/sealing.py and docs/reference/audit-seal-format.md).

- audit_seals.format: existing seals are format 1, and so is any seal a process of the
  previous version writes during a rolling upgrade (the column's default); this version's
  sealer writes 2. The MAC covers it (each format's MAC message has its own domain string).
- audit_seals.content_digest: format 2 only, SHA-256 over the seal's event encodings in
  order, so that `verify` checks a whole seal with one hash.
- ix_audit_seals_txid_to (txid_to) becomes (txid_to, workspace_id, seq): `verify` reads seals
  in sealing order, round by round, with it; it still serves the sealer's max(txid_to).

Revision ID: 0015
Revises: 0013 (re-chained onto 0014 when merged)
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "audit_seals",
        sa.Column("format", sa.SmallInteger(), nullable=False, server_default="1"),
    )
    op.add_column("audit_seals", sa.Column("content_digest", sa.LargeBinary(), nullable=True))
    op.create_index(
        "ix_audit_seals_txid_to_workspace_seq",
        "audit_seals",
        ["txid_to", "workspace_id", "seq"],
        unique=False,
    )
    op.drop_index("ix_audit_seals_txid_to", table_name="audit_seals")


def downgrade() -> None:
    # Seals of format 2 cannot be verified by the previous version: downgrading keeps them,
    # and that version's `verify` reports them as not verifying under the audit key.
    op.create_index("ix_audit_seals_txid_to", "audit_seals", ["txid_to"], unique=False)
    op.drop_index("ix_audit_seals_txid_to_workspace_seq", table_name="audit_seals")
    op.drop_column("audit_seals", "content_digest")
    op.drop_column("audit_seals", "format")
