"""An email is unique within a practice, no longer across the service.

With one account per address service-wide, `POST /users` had to refuse an address that
another practice already uses, which told any owner who is registered elsewhere. Now each
practice can add any address; sign-in finds the account whose password matches.

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("uq_users_email_lower", table_name="users")
    op.create_index(
        "uq_users_workspace_email_lower",
        "users",
        ["workspace_id", sa.text("lower(email)")],
        unique=True,
    )
    # Sign-in looks accounts up by address alone.
    op.create_index("ix_users_email_lower", "users", [sa.text("lower(email)")])


def downgrade() -> None:
    # Fails if two practices now share an address: resolve those accounts first.
    op.drop_index("ix_users_email_lower", table_name="users")
    op.drop_index("uq_users_workspace_email_lower", table_name="users")
    op.create_index("uq_users_email_lower", "users", [sa.text("lower(email)")], unique=True)
