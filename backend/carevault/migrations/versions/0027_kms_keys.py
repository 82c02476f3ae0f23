"""AWS KMS as the key provider, and a practice's own KMS key (BYOK).

`installation_keys` holds the installation-wide keys (the ring-wide blind-index key and the
audit key) when the master keys live in KMS: each row is a KMS ciphertext framed as in
docs/reference/key-formats.md ("KMS wrapped keys"), never a key. `workspaces.kms_key_id` names the KMS
key a practice brought (`carevault workspaces set-key`); NULL is the installation's key
(CAREVAULT_KMS_KEY_ID). Nothing changes for installations using the other providers.

Revision ID: 0027
Revises: 0026
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("workspaces", sa.Column("kms_key_id", sa.String(2048), nullable=True))
    op.create_table(
        "installation_keys",
        sa.Column("purpose", sa.String(32), nullable=False),
        sa.Column("wrapped_key", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.CheckConstraint(
            "purpose IN ('blind-index', 'audit')", name=op.f("ck_installation_keys_purpose")
        ),
        sa.PrimaryKeyConstraint("purpose", name=op.f("pk_installation_keys")),
    )


def downgrade() -> None:
    op.drop_table("installation_keys")
    op.drop_column("workspaces", "kms_key_id")
