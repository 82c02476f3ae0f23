"""Service accounts: integration credentials that belong to the practice, not to a person.

`service_accounts` holds the account (a name, the scopes its tokens may hold, an optional
expiry, who created it); its tokens are rows of `api_tokens` with `service_account_id` set
and no `user_id`, so disabling (or removing) the owner who created it neither revokes nor
cascades to them. A token belongs to exactly one of a user and a service account (check
`ck_api_tokens_one_holder`). The audit trail needs no change: a service account's event
carries its token's id (`actor_token_id`, covered by the seal) and no user id, and the
token names its service account for good (carevault.service_accounts.service).

`public_key_pem` / `public_key_id` are empty until OAuth client credentials (a JWT assertion
signed with the account's private key, RFC 7523) are built: see docs/reference/api.md.

Revision ID: 0026
Revises: 0025
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UUID = postgresql.UUID(as_uuid=True)


def upgrade() -> None:
    op.create_table(
        "service_accounts",
        sa.Column("id", UUID, nullable=False),
        sa.Column(
            "workspace_id",
            UUID,
            sa.ForeignKey(
                "workspaces.id",
                ondelete="RESTRICT",
                name="fk_service_accounts_workspace_id_workspaces",
            ),
            nullable=False,
        ),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("scopes", postgresql.ARRAY(sa.String(40)), nullable=False),
        sa.Column(
            "created_by",
            UUID,
            sa.ForeignKey(
                "users.id", ondelete="SET NULL", name="fk_service_accounts_created_by_users"
            ),
            nullable=True,
        ),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("public_key_pem", sa.Text(), nullable=True),
        sa.Column("public_key_id", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_service_accounts"),
    )
    op.create_index("ix_service_accounts_workspace_id", "service_accounts", ["workspace_id"])
    op.alter_column("api_tokens", "user_id", nullable=True)
    op.add_column(
        "api_tokens",
        sa.Column(
            "service_account_id",
            UUID,
            sa.ForeignKey(
                "service_accounts.id",
                ondelete="RESTRICT",
                name="fk_api_tokens_service_account_id_service_accounts",
            ),
            nullable=True,
        ),
    )
    op.create_check_constraint(
        "ck_api_tokens_one_holder",
        "api_tokens",
        "(user_id IS NULL) <> (service_account_id IS NULL)",
    )
    op.create_index(
        "ix_api_tokens_service_account_id",
        "api_tokens",
        ["service_account_id"],
        postgresql_where=sa.text("service_account_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.execute("DELETE FROM api_tokens WHERE service_account_id IS NOT NULL")
    op.drop_index("ix_api_tokens_service_account_id", table_name="api_tokens")
    op.drop_constraint("ck_api_tokens_one_holder", "api_tokens", type_="check")
    op.drop_column("api_tokens", "service_account_id")
    op.alter_column("api_tokens", "user_id", nullable=False)
    op.drop_table("service_accounts")
