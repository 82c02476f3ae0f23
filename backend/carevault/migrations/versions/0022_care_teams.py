"""Care teams and chart access: which clinicians see which clients' charts.

`care_team_members` assigns clinicians to clients; `workspaces.chart_access` chooses
whether that limits what they see (`practice`, the default: every clinician every chart, as
before; `care_team`: clinicians see only their clients' charts, owners every chart);
`workspaces.break_the_glass` lets a clinician open a chart outside their team with a
stated reason, recorded in `chart_access_grants` (the reason sealed like any PHI value, so
the table gets the shred fence's triggers of migration 0018). Existing practices keep
today's behaviour: `practice`, no break-the-glass, no care teams.

Revision ID: 0022
Revises: 0021
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UUID = postgresql.UUID(as_uuid=True)


def upgrade() -> None:
    op.add_column(
        "workspaces",
        sa.Column("chart_access", sa.String(16), nullable=False, server_default="practice"),
    )
    op.add_column(
        "workspaces",
        sa.Column("break_the_glass", sa.Boolean(), nullable=False, server_default="false"),
    )
    op.create_check_constraint(
        "ck_workspaces_chart_access", "workspaces", "chart_access IN ('practice', 'care_team')"
    )
    op.create_table(
        "care_team_members",
        sa.Column(
            "workspace_id",
            UUID,
            sa.ForeignKey(
                "workspaces.id",
                ondelete="RESTRICT",
                name="fk_care_team_members_workspace_id_workspaces",
            ),
            nullable=False,
        ),
        sa.Column(
            "client_id",
            UUID,
            sa.ForeignKey(
                "clients.id", ondelete="CASCADE", name="fk_care_team_members_client_id_clients"
            ),
            nullable=False,
        ),
        sa.Column(
            "user_id",
            UUID,
            sa.ForeignKey(
                "users.id", ondelete="CASCADE", name="fk_care_team_members_user_id_users"
            ),
            nullable=False,
        ),
        sa.Column(
            "added_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.PrimaryKeyConstraint(
            "workspace_id", "client_id", "user_id", name="pk_care_team_members"
        ),
    )
    op.create_index(
        "ix_care_team_members_workspace_user", "care_team_members", ["workspace_id", "user_id"]
    )
    op.create_table(
        "chart_access_grants",
        sa.Column("id", UUID, nullable=False),
        sa.Column(
            "workspace_id",
            UUID,
            sa.ForeignKey(
                "workspaces.id",
                ondelete="RESTRICT",
                name="fk_chart_access_grants_workspace_id_workspaces",
            ),
            nullable=False,
        ),
        sa.Column(
            "client_id",
            UUID,
            sa.ForeignKey(
                "clients.id", ondelete="CASCADE", name="fk_chart_access_grants_client_id_clients"
            ),
            nullable=False,
        ),
        sa.Column(
            "user_id",
            UUID,
            sa.ForeignKey(
                "users.id", ondelete="CASCADE", name="fk_chart_access_grants_user_id_users"
            ),
            nullable=False,
        ),
        sa.Column("reason", sa.LargeBinary(), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chart_access_grants"),
    )
    op.create_index("ix_chart_access_grants_workspace_id", "chart_access_grants", ["workspace_id"])
    op.create_index(
        "ix_chart_access_grants_workspace_user_client",
        "chart_access_grants",
        ["workspace_id", "user_id", "client_id", "expires_at"],
    )
    # The reason is sealed under the practice's data key: a shredded practice's writes are
    # refused here as on every other table with encrypted columns (migration 0018).
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER chart_access_grants_refuse_shredded_{event.lower()} AFTER {event} "
            "ON chart_access_grants REFERENCING NEW TABLE AS written "
            "FOR EACH STATEMENT EXECUTE FUNCTION carevault_refuse_shredded()"
        )


def downgrade() -> None:
    op.drop_table("chart_access_grants")
    op.drop_table("care_team_members")
    op.drop_constraint("ck_workspaces_chart_access", "workspaces", type_="check")
    op.drop_column("workspaces", "break_the_glass")
    op.drop_column("workspaces", "chart_access")
