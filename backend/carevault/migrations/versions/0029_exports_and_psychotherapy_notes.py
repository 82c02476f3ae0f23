"""Right of access and bulk export (issue 26).

`sessions.psychotherapy_note`: a note the practice marks as a psychotherapy note (45 CFR
164.501), which the right of access (164.524(a)(1)(i)) leaves out of a client's export.
`export_jobs` and `export_files`: bulk exports of a practice (FHIR Bulk Data), resumable
part by part. The NDJSON files sit on local disk sealed under the job's file key, which is
itself sealed under the practice's data key (`file_key`), so the table gets the shred
fence's triggers of migration 0018 and a shredded practice's files are unreadable.

Revision ID: 0029
Revises: 0027
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0029"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UUID = postgresql.UUID(as_uuid=True)


def upgrade() -> None:
    op.add_column(
        "sessions",
        sa.Column(
            "psychotherapy_note", sa.Boolean(), nullable=False, server_default=sa.text("false")
        ),
    )
    op.create_table(
        "export_jobs",
        sa.Column("id", UUID, nullable=False),
        sa.Column(
            "workspace_id",
            UUID,
            sa.ForeignKey(
                "workspaces.id", ondelete="RESTRICT", name="fk_export_jobs_workspace_id_workspaces"
            ),
            nullable=False,
        ),
        sa.Column(
            "requested_by",
            UUID,
            sa.ForeignKey(
                "users.id", ondelete="SET NULL", name="fk_export_jobs_requested_by_users"
            ),
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resource_types", postgresql.ARRAY(sa.String(40)), nullable=False),
        sa.Column("file_key", sa.LargeBinary(), nullable=False),
        sa.Column("progress", postgresql.JSONB(), nullable=False, server_default="{}"),
        sa.Column("error", sa.String(200)),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("completed_at", sa.DateTime(timezone=True)),
        sa.Column("expires_at", sa.DateTime(timezone=True)),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.PrimaryKeyConstraint("id", name="pk_export_jobs"),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'completed', 'failed', 'cancelled')",
            name="ck_export_jobs_status",
        ),
    )
    op.create_index("ix_export_jobs_workspace_id", "export_jobs", ["workspace_id"])
    op.create_index(
        "ix_export_jobs_unfinished",
        "export_jobs",
        ["status"],
        postgresql_where=sa.text("status IN ('queued', 'running')"),
    )
    op.create_table(
        "export_files",
        sa.Column("id", UUID, nullable=False),
        sa.Column(
            "workspace_id",
            UUID,
            sa.ForeignKey(
                "workspaces.id", ondelete="RESTRICT", name="fk_export_files_workspace_id_workspaces"
            ),
            nullable=False,
        ),
        sa.Column(
            "job_id",
            UUID,
            sa.ForeignKey(
                "export_jobs.id", ondelete="CASCADE", name="fk_export_files_job_id_export_jobs"
            ),
            nullable=False,
        ),
        sa.Column("resource_type", sa.String(40), nullable=False),
        sa.Column("part", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("last_key", sa.String(80), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_export_files"),
    )
    op.create_index("ix_export_files_workspace_id", "export_files", ["workspace_id"])
    op.create_index(
        "uq_export_files_job_type_part",
        "export_files",
        ["job_id", "resource_type", "part"],
        unique=True,
    )
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER export_jobs_refuse_shredded_{event.lower()} AFTER {event} "
            "ON export_jobs REFERENCING NEW TABLE AS written "
            "FOR EACH STATEMENT EXECUTE FUNCTION carevault_refuse_shredded()"
        )


def downgrade() -> None:
    op.drop_table("export_files")
    op.drop_table("export_jobs")
    op.drop_column("sessions", "psychotherapy_note")
