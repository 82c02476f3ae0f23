"""Every appointment has a clinician; an optional room; occurrences of a recurring booking
share a series id.

Existing appointments are given, per practice, the user whose email is in the environment
variable `CAREVAULT_MIGRATE_APPOINTMENT_CLINICIAN` when that practice has one (a clinician
chosen at migration), otherwise the practice's owner (the first created active owner; failing
that the first created owner, then the first created user). A practice with appointments and
no user at all stops the migration, naming the practice id. Owners can reassign appointments
afterwards (`PATCH /api/v1/appointments/{id}` with `clinician_id`).

The UPDATE runs with the appointments' shred-fence trigger (0018) off: it writes no
encrypted value, and a shredded practice's appointments must get a clinician too. Encrypted
values are bound to their practice and row ids only, so every record stays readable; the
audit trail is not touched.

Revision ID: 0019
Revises: 0018
"""

import os
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHOSEN_CLINICIAN_VARIABLE = "CAREVAULT_MIGRATE_APPOINTMENT_CLINICIAN"

ASSIGN = """
UPDATE appointments AS a SET clinician_id = (
    SELECT u.id FROM users AS u
    WHERE u.workspace_id = a.workspace_id
    ORDER BY
        lower(u.email) = lower(CAST(:chosen AS text)) IS TRUE DESC,
        u.role = 'owner' DESC,
        u.disabled_at IS NULL DESC,
        u.created_at,
        u.id
    LIMIT 1
)
WHERE a.clinician_id IS NULL
"""


def upgrade() -> None:
    op.add_column("appointments", sa.Column("clinician_id", sa.Uuid(), nullable=True))
    op.add_column("appointments", sa.Column("room", sa.String(length=100), nullable=True))
    op.add_column("appointments", sa.Column("series_id", sa.Uuid(), nullable=True))
    op.create_foreign_key(
        op.f("fk_appointments_clinician_id_users"),
        "appointments",
        "users",
        ["clinician_id"],
        ["id"],
        ondelete="RESTRICT",
    )
    chosen = os.environ.get(CHOSEN_CLINICIAN_VARIABLE, "").strip() or None
    op.execute("ALTER TABLE appointments DISABLE TRIGGER appointments_refuse_shredded_update")
    op.get_bind().execute(sa.text(ASSIGN), {"chosen": chosen})
    op.execute("ALTER TABLE appointments ENABLE TRIGGER appointments_refuse_shredded_update")
    orphaned = op.get_bind().scalar(
        sa.text("SELECT workspace_id FROM appointments WHERE clinician_id IS NULL LIMIT 1")
    )
    if orphaned is not None:
        raise RuntimeError(
            f"practice {orphaned} has appointments but no user to give them to: create a user "
            "of that practice, then run the migration again"
        )
    op.alter_column("appointments", "clinician_id", nullable=False)
    op.create_index(
        "ix_appointments_workspace_clinician_range",
        "appointments",
        ["workspace_id", "clinician_id", "starts_at", "ends_at"],
    )
    op.create_index(
        "ix_appointments_workspace_client_range",
        "appointments",
        ["workspace_id", "client_id", "starts_at", "ends_at"],
    )
    op.create_index(
        "ix_appointments_workspace_series",
        "appointments",
        ["workspace_id", "series_id"],
        postgresql_where=sa.text("series_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_appointments_workspace_series", table_name="appointments")
    op.drop_index("ix_appointments_workspace_client_range", table_name="appointments")
    op.drop_index("ix_appointments_workspace_clinician_range", table_name="appointments")
    op.drop_constraint(
        op.f("fk_appointments_clinician_id_users"), "appointments", type_="foreignkey"
    )
    op.drop_column("appointments", "series_id")
    op.drop_column("appointments", "room")
    op.drop_column("appointments", "clinician_id")
